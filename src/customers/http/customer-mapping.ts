import { FieldError } from '../../infra/domain/domain-error';
import { toAddress } from '../../shared/validation/address.dto';
import {
  BeneficialOwner,
  BeneficialOwnerChanges,
  BeneficialOwnerPersonalInfo,
  BusinessInfo,
  CustomerProfile,
  EndUserTermsConsent,
  IndividualEdd,
} from '../domain/customer/customer.events';
import { UpdateBeneficialOwnerDto } from './beneficial-owners.dto';
import { CustomerPatch } from '../commands/update-customer';
import {
  BeneficialOwnerDto,
  BusinessInfoPatchDto,
  CreateBusinessCustomerDto,
  CreateIndividualCustomerDto,
  EndUserTermsConsentDto,
  ID_TYPES,
  UpdateBusinessCustomerDto,
  UpdateIndividualCustomerDto,
} from './customers.dto';

const EDD_FIELDS = [
  'sourceOfFundsCategories',
  'sourceOfFundsOtherDescription',
  'sourceOfWealthCategories',
  'sourceOfWealthOtherDescription',
  'purposeOfAccount',
  'purposeOfAccountOtherDescription',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'annualIncomeRange',
  'netWorthRange',
  'pepStatus',
] as const satisfies ReadonlyArray<keyof IndividualEdd>;

/** BusinessInfo fields stored under the wire name (all but `incorporatedOn`, stored as `incorporationDate`). */
const BUSINESS_INFO_FIELDS = [
  'legalName',
  'doingBusinessAs',
  'country',
  'registrationNumber',
  'entityType',
  'taxId',
  'countriesOfOperation',
  'businessType',
  'purposeOfAccount',
  'sourceOfFunds',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'expectedRecipientJurisdictions',
  'naicsCode',
  'sourceOfFundsCategories',
  'sourceOfFundsOtherDescription',
  'purposeOfAccountOtherDescription',
  'expectedCounterpartyCountries',
  'primaryContactFirstName',
  'primaryContactLastName',
] as const satisfies ReadonlyArray<keyof BusinessInfo & keyof BusinessInfoPatchDto>;

/**
 * `idType`/`identifier` (the reference) and `taxIdType`/`taxIdentifier` (SPEC.md) name the same
 * two values: one body may use either spelling, not both with different values.
 */
export function identificationAliasErrors(dto: UpdateIndividualCustomerDto): FieldError[] {
  const errors: FieldError[] = [];
  if (dto.idType !== undefined && dto.taxIdType !== undefined && dto.idType !== dto.taxIdType) {
    errors.push({ field: 'taxIdType', constraint: { enum: ID_TYPES }, message: 'taxIdType is another name for idType: send one, or the same value' });
  }
  if (dto.identifier !== undefined && dto.taxIdentifier !== undefined && dto.identifier !== dto.taxIdentifier) {
    errors.push({ field: 'taxIdentifier', constraint: {}, message: 'taxIdentifier is another name for identifier: send one, or the same value' });
  }
  return errors;
}

/** Request DTOs -> domain values: absent optional fields become null, never undefined. */
export function individualProfile(dto: CreateIndividualCustomerDto): CustomerProfile {
  const edd = eddOf(dto);
  return {
    ...commonProfile(dto),
    fullName: dto.fullName ?? null,
    birthDate: dto.birthDate ?? null,
    nationality: dto.nationality ?? null,
    taxIdType: dto.idType ?? dto.taxIdType ?? null,
    taxIdentifier: dto.identifier ?? dto.taxIdentifier ?? null,
    businessInfo: null,
    beneficialOwners: [],
    ...(dto.countryOfIssuance !== undefined ? { countryOfIssuance: dto.countryOfIssuance } : {}),
    ...(Object.keys(edd).length > 0 ? { edd } : {}),
  };
}

export function businessProfile(dto: CreateBusinessCustomerDto): CustomerProfile {
  return {
    ...commonProfile(dto),
    fullName: null,
    birthDate: null,
    nationality: null,
    taxIdType: null,
    taxIdentifier: null,
    businessInfo: {
      registrationNumber: null,
      taxId: null,
      incorporationDate: null,
      entityType: null,
      ...businessInfoOf(dto.businessInfo),
      legalName: dto.businessInfo.legalName,
    },
    beneficialOwners: (dto.beneficialOwners ?? []).map(toBeneficialOwner),
  };
}

/** An owner as given; the service stamps its `id` and `createdAt` when it is stored. */
export function toBeneficialOwner(dto: BeneficialOwnerDto): BeneficialOwner {
  const info = dto.personalInfo;
  return {
    personalInfo: {
      firstName: info.firstName,
      middleName: info.middleName ?? null,
      lastName: info.lastName,
      birthDate: info.birthDate,
      nationality: info.nationality,
      email: info.email ?? null,
      phoneNumber: info.phoneNumber ?? null,
      address: toAddress(info.address),
      idType: info.idType,
      identifier: info.identifier,
      ...(info.countryOfIssuance !== undefined ? { countryOfIssuance: info.countryOfIssuance } : {}),
    },
    roles: dto.roles,
    ownershipPercentage: dto.ownershipPercentage,
    kycStatus: 'UNVERIFIED',
  };
}

/** `PATCH /beneficial-owners/{id}`: the given fields only (the decider drops those equal to the stored ones). */
export function beneficialOwnerChanges(dto: UpdateBeneficialOwnerDto): BeneficialOwnerChanges {
  const changes: BeneficialOwnerChanges = {};
  if (dto.roles !== undefined) changes.roles = dto.roles;
  if (dto.ownershipPercentage !== undefined) changes.ownershipPercentage = dto.ownershipPercentage;
  if (dto.personalInfo !== undefined) {
    const { address, ...rest } = dto.personalInfo;
    const info: Partial<BeneficialOwnerPersonalInfo> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    if (address !== undefined) info.address = toAddress(address);
    if (Object.keys(info).length > 0) changes.personalInfo = info;
  }
  return changes;
}

export function individualPatch(dto: UpdateIndividualCustomerDto): CustomerPatch {
  const patch = commonPatch(dto);
  if (dto.fullName !== undefined) patch.fullName = dto.fullName;
  if (dto.birthDate !== undefined) patch.birthDate = dto.birthDate;
  if (dto.nationality !== undefined) patch.nationality = dto.nationality;
  const idType = dto.idType ?? dto.taxIdType;
  if (idType !== undefined) patch.taxIdType = idType;
  const identifier = dto.identifier ?? dto.taxIdentifier;
  if (identifier !== undefined) patch.taxIdentifier = identifier;
  if (dto.countryOfIssuance !== undefined) patch.countryOfIssuance = dto.countryOfIssuance;
  const edd = eddOf(dto);
  if (Object.keys(edd).length > 0) patch.edd = edd;
  return patch;
}

export function businessPatch(dto: UpdateBusinessCustomerDto): CustomerPatch {
  const patch = commonPatch(dto);
  if (dto.beneficialOwners !== undefined) patch.beneficialOwners = dto.beneficialOwners.map(toBeneficialOwner);
  if (dto.businessInfo !== undefined) patch.businessInfo = businessInfoOf(dto.businessInfo);
  return patch;
}

type CommonDto = Pick<CreateIndividualCustomerDto, 'region' | 'email' | 'phoneNumber' | 'address' | 'currencies' | 'endUserTermsConsent'>;

function commonProfile(dto: CommonDto): Pick<CustomerProfile, 'region' | 'email' | 'phoneNumber' | 'address' | 'currencies' | 'endUserTermsConsent'> {
  return {
    region: dto.region ?? null,
    email: dto.email ?? null,
    phoneNumber: dto.phoneNumber ?? null,
    address: dto.address ? toAddress(dto.address) : null,
    ...(dto.currencies !== undefined ? { currencies: dto.currencies } : {}),
    ...(dto.endUserTermsConsent !== undefined ? { endUserTermsConsent: termsConsent(dto.endUserTermsConsent) } : {}),
  };
}

function commonPatch(dto: CommonDto & { umaAddress?: string }): CustomerPatch {
  const patch: CustomerPatch = {};
  if (dto.region !== undefined) patch.region = dto.region;
  if (dto.email !== undefined) patch.email = dto.email;
  if (dto.phoneNumber !== undefined) patch.phoneNumber = dto.phoneNumber;
  if (dto.address !== undefined) patch.address = toAddress(dto.address);
  if (dto.currencies !== undefined) patch.currencies = dto.currencies;
  if (dto.endUserTermsConsent !== undefined) patch.endUserTermsConsent = termsConsent(dto.endUserTermsConsent);
  if (dto.umaAddress !== undefined) patch.umaAddress = dto.umaAddress;
  return patch;
}

/** Kept as given, the instant normalised to UTC so equal consents compare equal. */
function termsConsent(dto: EndUserTermsConsentDto): EndUserTermsConsent {
  return {
    acceptedAt: new Date(dto.acceptedAt).toISOString(),
    ipAddress: dto.ipAddress,
    termsVersion: dto.termsVersion,
    acceptanceMethod: dto.acceptanceMethod,
  };
}

function eddOf(dto: UpdateIndividualCustomerDto): IndividualEdd {
  const edd: Record<string, unknown> = {};
  for (const field of EDD_FIELDS) if (dto[field] !== undefined) edd[field] = dto[field];
  return edd as IndividualEdd;
}

/** The fields given, under their stored names. */
function businessInfoOf(dto: BusinessInfoPatchDto): Partial<BusinessInfo> {
  const info: Record<string, unknown> = {};
  for (const field of BUSINESS_INFO_FIELDS) if (dto[field] !== undefined) info[field] = dto[field];
  if (dto.incorporatedOn !== undefined) info.incorporationDate = dto.incorporatedOn;
  return info as Partial<BusinessInfo>;
}
