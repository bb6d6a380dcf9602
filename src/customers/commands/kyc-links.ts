import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { isUuid, streamNameFor, uuidv7 } from '../../infra/ids';
import { currentContext } from '../../infra/request-context';
import { CustomerCommand, CustomerRecord } from '../domain/customer/customer.decider';
import { BeneficialOwnerChanges, VerificationError } from '../domain/customer/customer.events';
import { KycLinkRecord } from '../domain/customer/kyc-link.events';
import { kycLinkRequirements, usableKycLink } from '../domain/customer/kyc-links';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { KycLinkView } from '../queries/kyc-link.view';
import { VerificationView } from '../queries/customer.view';
import { CUSTOMER_STREAM } from '../streams';
import { UpdateBeneficialOwner } from './beneficial-owners';
import { assertOwned } from './customer-guards';
import { SubmitVerification } from './submit-verification';
import { CustomerPatch, UpdateCustomer } from './update-customer';
import { DocumentFields, UploadDocument, UploadedFile } from './upload-document';

/** Where the hosted page is served, below the API version (kyc-link-page.controller.ts). */
export const KYC_LINK_PAGE_PATH = 'hosted/kyc';

/** `POST /customers/{customerId}/kyc-link`: answers the link. */
export class IssueKycLink extends Command<KycLinkView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly redirectUri: string | null,
    /** The request's origin and API version segment: the link's base unless PUBLIC_BASE_URL is set. */
    readonly requestOrigin: string,
    readonly apiVersion: string,
  ) {
    super();
  }
}

/**
 * The token is `<customer uuid>.<secret>`: the uuid names the stream to read, the secret (256
 * random bits) is the credential, recorded only as its SHA-256. The uuid is no secret: the person
 * the link is for is that customer.
 */
@CommandHandler(IssueKycLink)
export class IssueKycLinkHandler implements ICommandHandler<IssueKycLink, KycLinkView> {
  constructor(
    private readonly commands: CommandStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, redirectUri, requestOrigin, apiVersion }: IssueKycLink): Promise<KycLinkView> {
    const secret = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.kycLinks.lifetimeMs).toISOString();
    const command: CustomerCommand = { type: 'IssueKycLink', linkId: `KycLink:${uuidv7()}`, tokenHash: hashOf(secret), redirectUri, expiresAt, now: now.toISOString() };
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      return command;
    });
    const token = `${customerId.slice(customerId.indexOf(':') + 1)}.${secret}`;
    return { kycUrl: `${this.config.kycLinks.publicBaseUrl ?? requestOrigin}/${apiVersion}/${KYC_LINK_PAGE_PATH}/${token}`, expiresAt, provider: 'SUMSUB' };
  }
}

/** An open link: the customer it is for and what they still lack. */
export interface OpenKycLink {
  customer: { status: 'active' } & CustomerRecord;
  link: KycLinkRecord;
  missing: VerificationError[];
}

/**
 * Opens a link for its page: refuses (DomainError with the reason the page shows) a token that
 * names no link, a used or expired one, a deleted customer. From then on the request acts as the
 * link's holder: the events it appends are the end user's (audit history), on the customer's platform.
 */
@Injectable()
export class KycLinks {
  constructor(private readonly commands: CommandStore) {}

  async open(token: string): Promise<OpenKycLink> {
    const parsed = parseToken(token);
    if (!parsed) throw linkNotFound();
    const { state } = await this.commands.load(CUSTOMER_STREAM, streamNameFor(parsed.customerId));
    const link = usableKycLink(state, parsed.tokenHash, new Date().toISOString());
    const customer = state as OpenKycLink['customer'];
    const context = currentContext();
    if (context) {
      context.platformId = customer.platformId;
      context.actor = `end-user:${link.linkId}`;
    }
    return { customer, link, missing: kycLinkRequirements(customer) };
  }
}

export interface KycLinkSubmission {
  /** The missing fields given, as a PATCH would carry them. */
  patch: CustomerPatch;
  /** A business's owners' missing fields, as `PATCH /beneficial-owners/{id}` would carry them. */
  owners: Array<{ beneficialOwnerId: string; changes: BeneficialOwnerChanges }>;
  document: { file: UploadedFile; metadata: Omit<DocumentFields, 'documentHolder'> } | null;
}

export interface KycLinkOutcome {
  redirectUri: string | null;
  verification: VerificationView;
}

/** The hosted page's submit: answers the verification it ran and where to send the person. */
export class CompleteKycLink extends Command<KycLinkOutcome> {
  constructor(
    readonly opened: OpenKycLink,
    readonly submission: KycLinkSubmission,
  ) {
    super();
  }
}

/**
 * What the person gave is stored through the platform's own commands (PATCH's UpdateCustomer,
 * `PATCH /beneficial-owners`' UpdateBeneficialOwner, `POST /documents`' UploadDocument), then the
 * link is marked used, then the verification runs through `POST /verifications`' command: the
 * same checks, transitions and webhooks. Marking it
 * used before the verification makes a second submission fail before it verifies twice; a crash
 * in between leaves the data stored and the link used (the platform issues a new one, or submits).
 */
@CommandHandler(CompleteKycLink)
export class CompleteKycLinkHandler implements ICommandHandler<CompleteKycLink, KycLinkOutcome> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ opened, submission }: CompleteKycLink): Promise<KycLinkOutcome> {
    const { customerId, platformId } = opened.customer;
    if (Object.keys(submission.patch).length > 0) await this.commandBus.execute(new UpdateCustomer(platformId, customerId, submission.patch));
    for (const { beneficialOwnerId, changes } of submission.owners) await this.commandBus.execute(new UpdateBeneficialOwner(platformId, beneficialOwnerId, changes));
    if (submission.document) {
      const { file, metadata } = submission.document;
      await this.commandBus.execute(new UploadDocument(platformId, file, { ...metadata, documentHolder: customerId }));
    }
    const { tokenHash } = opened.link;
    await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (): CustomerCommand => ({ type: 'CompleteKycLink', tokenHash, now: new Date().toISOString() }));
    const verification: VerificationView = await this.commandBus.execute(new SubmitVerification(platformId, customerId));
    return { redirectUri: opened.link.redirectUri, verification };
  }
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const SECRET_FORM = /^[A-Za-z0-9_-]{43}$/;

function parseToken(token: string): { customerId: string; tokenHash: string } | null {
  const [uuid, secret, ...rest] = token.split('.');
  if (rest.length > 0 || !uuid || !secret || !isUuid(uuid) || !SECRET_FORM.test(secret)) return null;
  return { customerId: `Customer:${uuid}`, tokenHash: hashOf(secret) };
}

function linkNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'This verification link is not valid', { reason: 'KYC_LINK_NOT_FOUND' });
}
