import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { PersonalDataKeys, PersonalSecret, isSealed, personalDataKeyId } from '../infra/crypto/personal-data';
import { DomainError } from '../infra/domain/domain-error';
import { ConcurrencyError } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { newId, streamNameFor, uuidv5, uuidv7 } from '../infra/ids';
import { PG_POOL } from '../infra/postgres/pool';
import {
  beneficialOwnerKycStatus,
  businessVerificationScenario,
  individualVerificationScenario,
  initialIndividualKycStatus,
} from '../sandbox';
import { claimDecider } from './domain/claim/claim.decider';
import { CustomerCommand, CustomerState, customerDecider, VerificationScenario } from './domain/customer/customer.decider';
import { BeneficialOwner, BusinessInfo, CustomerProfile, CustomerType, IndividualEdd, KycStatus } from './domain/customer/customer.events';
import { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
import { customerDeleted, customerNotFound, deletedCustomerConflict, deletedCustomerReference } from './customers.errors';
import {
  beneficialOwnerIdentifierField,
  currentPersonalDataKeyId,
  documentNumberField,
  TAX_IDENTIFIER_FIELD,
} from './domain/customer/personal-data-fields';
import { CustomerView, DocumentView, VerificationView, customerStateFromEvents, customerView, documentView, verificationView } from './queries/customer.view';
import { openCustomerView, openDocumentView } from './queries/personal-data-views';
import { CommandStore } from '../infra/commands/command-store';
import { CUSTOMER_KEY_CLAIM_STREAM, CUSTOMER_STREAM } from './streams';

export const DOCUMENT_FILES_DDL = `
CREATE TABLE IF NOT EXISTS customer_document_files (
  platform_id text NOT NULL,
  document_id text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform_id, document_id)
)`;

/** A claim whose customer never got created (a crashed request) is taken over after this. */
const ORPHAN_CLAIM_AFTER_MS = 30_000;

/** Generated UMA addresses live on this domain (platforms may bring their own address). */
export const SANDBOX_UMA_DOMAIN = 'uma.sandbox.payments.local';

export interface CreateCustomerInput {
  customerType: CustomerType;
  /** Optional in the reference: the customer id stands in when absent. */
  platformCustomerId: string | null;
  umaAddress: string | null;
  profile: CustomerProfile;
}

/**
 * PATCH input: absent fields stay; `businessInfo` and `edd` merge into the current ones;
 * `beneficialOwners` replaces the owners (each gets a new id); `umaAddress` moves the customer.
 */
export type CustomerPatch = Partial<Omit<CustomerProfile, 'businessInfo' | 'edd'>> & {
  businessInfo?: Partial<BusinessInfo>;
  edd?: IndividualEdd;
  umaAddress?: string;
};

export interface UploadedFile {
  buffer: Buffer;
  originalName: string;
  contentType: string;
}

export interface DocumentFields {
  documentHolder: string;
  documentType: string;
  country: string;
  side: string | null;
  documentNumber: string | null;
  issuingAuthority: string | null;
}

/**
 * Customer use cases. Creation claims the unique keys (platformCustomerId per platform, UMA
 * address), appends the customer, then runs the creation hooks (internal accounts) in the same
 * request. A crash part-way is safe: orphan claims are taken over, and a reactor re-runs the hooks
 * for every `CustomerCreated`.
 */
@Injectable()
export class CustomersService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
    private readonly hooks: CustomerLifecycleHooks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(DOCUMENT_FILES_DDL);
  }

  async create(platformId: string, input: CreateCustomerInput): Promise<CustomerView> {
    const customerId = newId('Customer');
    const now = new Date().toISOString();
    const platformCustomerId = input.platformCustomerId ?? customerId;
    const umaAddress = input.umaAddress ?? generatedUmaAddress(platformCustomerId, customerId);
    const claims = [
      { key: platformCustomerIdKey(platformId, platformCustomerId), code: 'CONFLICT', message: 'A customer with this platformCustomerId already exists' },
      { key: umaAddressKey(umaAddress), code: 'UMA_ADDRESS_EXISTS', message: 'This UMA address is already in use' },
    ];
    const held: string[] = [];
    try {
      for (const claim of claims) {
        await this.claim(claim.key, claim.code, claim.message, platformId, customerId, now);
        held.push(claim.key);
      }
    } catch (error) {
      for (const key of held) await this.release(key, platformId, customerId, now);
      throw error;
    }
    // A nameless individual has nothing the sandbox suffix rule could read: it starts UNVERIFIED.
    const initialKycStatus: KycStatus =
      input.customerType === 'INDIVIDUAL' && this.config.mode === 'sandbox' && input.profile.fullName
        ? initialIndividualKycStatus(input.profile.fullName)
        : 'UNVERIFIED';
    // The customer's data key is created with it; secret fields are sealed before they enter an event.
    const keyId = personalDataKeyId(customerId, 0);
    await this.personalData.create(keyId);
    const profile = await this.sealProfile(keyId, customerId, { ...input.profile, beneficialOwners: stampOwners(input.profile.beneficialOwners, now) });
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), {
      type: 'CreateCustomer',
      customerId,
      platformId,
      customerType: input.customerType,
      platformCustomerId,
      umaAddress,
      profile: { ...input.profile, ...profile },
      initialKycStatus,
      now,
    });
    await this.hooks.runCustomerCreated({ platformId, customerId, customerType: input.customerType, createdAt: now });
    return openCustomerView(customerView(activeOrDeleted(result.state)), this.personalData);
  }

  /**
   * A new UMA address is claimed before the change is appended and the old one released after
   * (a failed change releases the new claim); a crash in between leaves the old key held by a
   * customer who no longer uses it, which `holderStillCounts` treats as free.
   */
  async update(platformId: string, customerId: string, patch: CustomerPatch): Promise<CustomerView> {
    const now = new Date().toISOString();
    const { businessInfo, edd, umaAddress, beneficialOwners, ...rest } = patch;
    const current = await this.loadActive(platformId, customerId, deletedCustomerConflict);
    const keyId = currentPersonalDataKeyId(current);
    const secrets = await this.sealProfile(keyId, customerId, {
      ...(rest.taxIdentifier !== undefined && !(await this.sameSecret(current.profile.taxIdentifier, rest.taxIdentifier, customerId, TAX_IDENTIFIER_FIELD))
        ? { taxIdentifier: rest.taxIdentifier }
        : {}),
      ...(beneficialOwners ? { beneficialOwners: stampOwners(beneficialOwners, now) } : {}),
    });
    delete rest.taxIdentifier;
    const movesUma = umaAddress !== undefined && umaAddressKey(umaAddress) !== umaAddressKey(current.umaAddress);
    if (movesUma) await this.claim(umaAddressKey(umaAddress), 'UMA_ADDRESS_EXISTS', 'This UMA address is already in use', platformId, customerId, now);
    let result;
    try {
      result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
        assertOwned(state, platformId);
        if (state.status === 'deleted') throw deletedCustomerConflict();
        assertSameDataKey(state, keyId);
        const changes: Partial<CustomerProfile> = { ...rest, ...secrets };
        if (businessInfo && state.profile.businessInfo) changes.businessInfo = { ...state.profile.businessInfo, ...businessInfo };
        if (edd) changes.edd = { ...(state.profile.edd ?? {}), ...edd };
        return { type: 'UpdateCustomer', changes, ...(umaAddress !== undefined ? { umaAddress } : {}), now };
      });
    } catch (error) {
      if (movesUma) await this.release(umaAddressKey(umaAddress), platformId, customerId, now);
      throw error;
    }
    if (movesUma) await this.release(umaAddressKey(current.umaAddress), platformId, customerId, now);
    return openCustomerView(customerView(activeOrDeleted(result.state)), this.personalData);
  }

  async delete(platformId: string, customerId: string): Promise<CustomerView> {
    const now = new Date().toISOString();
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      return { type: 'DeleteCustomer', now };
    });
    const state = activeOrDeleted(result.state);
    await this.releaseCustomerKeys(platformId, customerId, state.platformCustomerId, state.umaAddress);
    return openCustomerView(customerView(state), this.personalData);
  }

  /** Frees a deleted customer's unique keys (also run by a reactor, so it is idempotent). */
  async releaseCustomerKeys(platformId: string, customerId: string, platformCustomerId: string, umaAddress: string): Promise<void> {
    const now = new Date().toISOString();
    await this.release(platformCustomerIdKey(platformId, platformCustomerId), platformId, customerId, now);
    await this.release(umaAddressKey(umaAddress), platformId, customerId, now);
  }

  /**
   * The customer's state from its stream (authoritative), or throws 404 USER_NOT_FOUND, or
   * `whenDeleted()` for a deleted customer (each operation answers the status its reference declares).
   */
  async loadActive(platformId: string, customerId: string, whenDeleted: () => DomainError = customerDeleted): Promise<CustomerState & { status: 'active' }> {
    const { state } = await this.commands.load(CUSTOMER_STREAM, streamNameFor(customerId));
    assertOwned(state, platformId);
    if (state.status === 'deleted') throw whenDeleted();
    return state as CustomerState & { status: 'active' };
  }

  async uploadDocument(platformId: string, file: UploadedFile, fields: DocumentFields): Promise<DocumentView> {
    const whenDeleted = () => deletedCustomerReference('documentHolder');
    const holder = await this.loadActive(platformId, fields.documentHolder, whenDeleted);
    const keyId = currentPersonalDataKeyId(holder);
    const documentId = newId('Document');
    const now = new Date().toISOString();
    // The file is stored before the event: a crash in between leaves an unreferenced file row,
    // never an event pointing at a missing file.
    await this.pool.query(
      `INSERT INTO customer_document_files (platform_id, document_id, content_type, content) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [platformId, documentId, file.contentType, file.buffer],
    );
    const document = {
      documentId,
      documentType: fields.documentType,
      side: fields.side,
      country: fields.country,
      documentNumber:
        fields.documentNumber === null
          ? null
          : await this.personalData.seal(keyId, fields.documentHolder, documentNumberField(documentId), fields.documentNumber),
      issuingAuthority: fields.issuingAuthority,
      fileName: file.originalName,
      contentType: file.contentType,
      sizeBytes: file.buffer.length,
      sha256: createHash('sha256').update(file.buffer).digest('hex'),
      uploadedAt: now,
    };
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(fields.documentHolder), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw whenDeleted();
      assertSameDataKey(state, keyId);
      return { type: 'UploadDocument', document };
    });
    return openDocumentView(documentView(fields.documentHolder, document), this.personalData);
  }

  async submitVerification(platformId: string, customerId: string): Promise<VerificationView> {
    const verificationId = newId('Verification');
    const now = new Date().toISOString();
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw deletedCustomerReference('customerId');
      return { type: 'SubmitVerification', verificationId, scenario: this.scenarioFor(state), now };
    });
    const state = activeOrDeleted(result.state);
    const record = state.verifications.find((candidate) => candidate.verificationId === verificationId);
    if (!record) throw new DomainError('INTERNAL_ERROR', 'The verification was not recorded');
    return verificationView(customerId, record);
  }

  /** The secret fields of `profile` sealed with `keyId` (owners must carry their ids already). */
  private async sealProfile(
    keyId: string,
    customerId: string,
    profile: Pick<Partial<CustomerProfile>, 'taxIdentifier' | 'beneficialOwners'>,
  ): Promise<Pick<Partial<CustomerProfile>, 'taxIdentifier' | 'beneficialOwners'>> {
    const sealed: Pick<Partial<CustomerProfile>, 'taxIdentifier' | 'beneficialOwners'> = {};
    if (profile.taxIdentifier !== undefined) sealed.taxIdentifier = await this.sealSecret(keyId, customerId, TAX_IDENTIFIER_FIELD, profile.taxIdentifier);
    if (profile.beneficialOwners !== undefined) {
      sealed.beneficialOwners = await Promise.all(
        profile.beneficialOwners.map(async (owner) => ({
          ...owner,
          personalInfo: {
            ...owner.personalInfo,
            identifier: await this.sealSecret(keyId, customerId, beneficialOwnerIdentifierField(owner.id!), owner.personalInfo.identifier),
          },
        })),
      );
    }
    return sealed;
  }

  private async sealSecret(keyId: string, customerId: string, field: string, value: PersonalSecret | null): Promise<PersonalSecret | null> {
    if (value === null || isSealed(value)) return value;
    return this.personalData.seal(keyId, customerId, field, value);
  }

  /** A PATCH resending the stored value changes nothing (a fresh seal would differ byte for byte). */
  private async sameSecret(stored: PersonalSecret | null, given: PersonalSecret | null, customerId: string, field: string): Promise<boolean> {
    if (stored === null || given === null) return stored === given;
    return (await this.personalData.open(stored, customerId, field)) === given;
  }

  private scenarioFor(state: CustomerState): VerificationScenario {
    if (state.status === 'none') return { individual: 'CHECK_REQUIREMENTS', business: 'CHECK_REQUIREMENTS', beneficialOwnerKycStatuses: [] };
    if (this.config.mode !== 'sandbox') {
      return {
        individual: 'CHECK_REQUIREMENTS',
        business: 'CHECK_REQUIREMENTS',
        beneficialOwnerKycStatuses: state.profile.beneficialOwners.map((owner) => owner.kycStatus),
      };
    }
    return {
      individual: individualVerificationScenario(state.profile.fullName),
      business: businessVerificationScenario(state.profile.businessInfo?.registrationNumber),
      beneficialOwnerKycStatuses: state.profile.beneficialOwners.map((owner) => beneficialOwnerKycStatus(owner.personalInfo.lastName)),
    };
  }

  private async claim(key: string, code: string, message: string, platformId: string, customerId: string, now: string): Promise<void> {
    const stream = claimStreamName(key);
    for (let attempt = 0; attempt < 5; attempt++) {
      const { state, revision } = await this.commands.load(CUSTOMER_KEY_CLAIM_STREAM, stream);
      let takeOverFrom: string | null = null;
      if (state.status === 'held' && state.customerId !== customerId) {
        if (await this.holderStillCounts(state.customerId, state.claimedAt, now, key)) throw new DomainError(code, message);
        takeOverFrom = state.customerId;
      }
      const decided = claimDecider.decide({ type: 'ClaimKey', key, platformId, customerId, takeOverFrom, conflictCode: code, now }, state);
      try {
        if (decided.length > 0) await this.events.append(stream, decided, revision);
        return;
      } catch (error) {
        if (error instanceof ConcurrencyError) continue;
        throw error;
      }
    }
    throw new DomainError(code, message);
  }

  private async release(key: string, platformId: string, customerId: string, now: string): Promise<void> {
    await this.commands.handle(CUSTOMER_KEY_CLAIM_STREAM, claimStreamName(key), { type: 'ReleaseKey', key, platformId, customerId, now });
  }

  /**
   * A held key blocks a new customer while its holder is active and still uses it (an UMA
   * address the holder moved away from no longer counts), or while the holder's creation or
   * move may still be in flight (claimed recently, not appended yet).
   */
  private async holderStillCounts(holderId: string, claimedAt: string, now: string, key: string): Promise<boolean> {
    const recent = Date.parse(now) - Date.parse(claimedAt) < ORPHAN_CLAIM_AFTER_MS;
    const holderEvents = await this.events.readStream(streamNameFor(holderId));
    if (holderEvents.length === 0) return recent;
    const holder = customerStateFromEvents(holderEvents);
    if (holder.status !== 'active') return false;
    return !key.startsWith('umaAddress:') || umaAddressKey(holder.umaAddress) === key || recent;
  }
}

/**
 * Values were sealed with the key current when the customer was loaded: an erasure in between
 * retired that key, so the request is refused rather than storing values already shredded.
 */
function assertSameDataKey(state: Exclude<CustomerState, { status: 'none' }>, keyId: string): void {
  if (currentPersonalDataKeyId(state) !== keyId) {
    throw new DomainError('CONFLICT', "The customer's personal data was erased concurrently; retry the request");
  }
}

function assertOwned(state: CustomerState, platformId: string): asserts state is Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none' || state.platformId !== platformId) throw customerNotFound();
}

/** Owners get their id and creation time when they are stored (creation, or a PATCH that replaces them). */
function stampOwners(owners: BeneficialOwner[], now: string): BeneficialOwner[] {
  return owners.map((owner) => ({ ...owner, id: owner.id ?? `BeneficialOwner:${uuidv7()}`, createdAt: owner.createdAt ?? now }));
}

function activeOrDeleted(state: CustomerState): Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none') throw customerNotFound();
  return state;
}

export function claimStreamName(key: string): string {
  return `customerClaim-${uuidv5(`customer-claim:${key}`)}`;
}

function platformCustomerIdKey(platformId: string, platformCustomerId: string): string {
  return `platformCustomerId:${platformId}:${platformCustomerId}`;
}

function umaAddressKey(umaAddress: string): string {
  return `umaAddress:${umaAddress.toLowerCase()}`;
}

/** `$<slug of platformCustomerId>.<8 hex>@uma.sandbox.payments.local`: readable and unique enough. */
function generatedUmaAddress(platformCustomerId: string, customerId: string): string {
  const slug = platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]+/g, '').slice(0, 40) || 'customer';
  const tail = customerId.replace(/-/g, '').slice(-8);
  return `$${slug}.${tail}@${SANDBOX_UMA_DOMAIN}`;
}
