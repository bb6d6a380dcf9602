import { toAddress } from '../../shared/validation/address.dto';
import { BeneficialOwner, BusinessInfo, CustomerProfile } from '../domain/customer/customer.events';
import { CustomerPatch } from '../customers.service';
import {
  BeneficialOwnerDto,
  CreateBusinessCustomerDto,
  CreateIndividualCustomerDto,
  UpdateBusinessCustomerDto,
  UpdateIndividualCustomerDto,
} from './customers.dto';

/** Request DTOs -> domain values: absent optional fields become null, never undefined. */
export function individualProfile(dto: CreateIndividualCustomerDto): CustomerProfile {
  return {
    region: dto.region ?? null,
    email: dto.email ?? null,
    phoneNumber: dto.phoneNumber ?? null,
    address: dto.address ? toAddress(dto.address) : null,
    fullName: dto.fullName,
    birthDate: dto.birthDate ?? null,
    nationality: dto.nationality ?? null,
    taxIdType: dto.taxIdType ?? null,
    taxIdentifier: dto.taxIdentifier ?? null,
    businessInfo: null,
    beneficialOwners: [],
  };
}

export function businessProfile(dto: CreateBusinessCustomerDto): CustomerProfile {
  return {
    region: dto.region ?? null,
    email: dto.email ?? null,
    phoneNumber: dto.phoneNumber ?? null,
    address: dto.address ? toAddress(dto.address) : null,
    fullName: null,
    birthDate: null,
    nationality: null,
    taxIdType: null,
    taxIdentifier: null,
    businessInfo: {
      legalName: dto.businessInfo.legalName,
      registrationNumber: dto.businessInfo.registrationNumber ?? null,
      taxId: dto.businessInfo.taxId ?? null,
      incorporationDate: dto.businessInfo.incorporationDate ?? null,
      entityType: dto.businessInfo.entityType ?? null,
    },
    beneficialOwners: (dto.beneficialOwners ?? []).map(toBeneficialOwner),
  };
}

export function toBeneficialOwner(dto: BeneficialOwnerDto): BeneficialOwner {
  const info = dto.personalInfo;
  return {
    personalInfo: {
      firstName: info.firstName ?? null,
      middleName: info.middleName ?? null,
      lastName: info.lastName,
      birthDate: info.birthDate ?? null,
      nationality: info.nationality ?? null,
      email: info.email ?? null,
      phoneNumber: info.phoneNumber ?? null,
      address: info.address ? toAddress(info.address) : null,
      idType: info.idType ?? null,
      identifier: info.identifier ?? null,
    },
    roles: dto.roles ?? [],
    ownershipPercentage: dto.ownershipPercentage ?? null,
    kycStatus: 'UNVERIFIED',
  };
}

export function individualPatch(dto: UpdateIndividualCustomerDto): CustomerPatch {
  const patch: CustomerPatch = {};
  if (dto.region !== undefined) patch.region = dto.region;
  if (dto.email !== undefined) patch.email = dto.email;
  if (dto.phoneNumber !== undefined) patch.phoneNumber = dto.phoneNumber;
  if (dto.address !== undefined) patch.address = toAddress(dto.address);
  if (dto.fullName !== undefined) patch.fullName = dto.fullName;
  if (dto.birthDate !== undefined) patch.birthDate = dto.birthDate;
  if (dto.nationality !== undefined) patch.nationality = dto.nationality;
  if (dto.taxIdType !== undefined) patch.taxIdType = dto.taxIdType;
  if (dto.taxIdentifier !== undefined) patch.taxIdentifier = dto.taxIdentifier;
  return patch;
}

export function businessPatch(dto: UpdateBusinessCustomerDto): CustomerPatch {
  const patch: CustomerPatch = {};
  if (dto.region !== undefined) patch.region = dto.region;
  if (dto.email !== undefined) patch.email = dto.email;
  if (dto.phoneNumber !== undefined) patch.phoneNumber = dto.phoneNumber;
  if (dto.address !== undefined) patch.address = toAddress(dto.address);
  if (dto.beneficialOwners !== undefined) patch.beneficialOwners = dto.beneficialOwners.map(toBeneficialOwner);
  if (dto.businessInfo !== undefined) {
    const info: Partial<BusinessInfo> = {};
    for (const key of ['legalName', 'registrationNumber', 'taxId', 'incorporationDate', 'entityType'] as const) {
      if (dto.businessInfo[key] !== undefined) info[key] = dto.businessInfo[key];
    }
    patch.businessInfo = info;
  }
  return patch;
}
