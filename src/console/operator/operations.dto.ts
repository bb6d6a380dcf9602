import { IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { JOB_KINDS, JobKind } from './operation-jobs';

/** `POST /console/operations/jobs`: rebuild or verify one projection (its name as /health lists it). */
export class StartJobDto {
  @IsDefined() @IsString() @IsIn(JOB_KINDS) kind: JobKind;
  @IsDefined() @IsString() @MaxLength(100) projection: string;
}
