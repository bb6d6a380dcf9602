import { ArrayMinSize, ArrayUnique, IsArray, IsDefined, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { PERMISSIONS, Permission } from '../../infra/http/permissions';

/** `POST /tokens` (the reference's ApiTokenCreateRequest). */
export class CreateTokenDto {
  @IsDefined() @IsString() @MaxLength(255) @Matches(/\S/, { message: 'name must not be blank' }) name: string;
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayUnique({ message: 'permissions must list each permission once' }) @IsIn(PERMISSIONS, { each: true })
  permissions: Permission[];
}
