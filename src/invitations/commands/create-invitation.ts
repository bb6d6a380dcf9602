import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomerView, CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor, uuidv7 } from '../../infra/ids';
import { PlatformConfig, PlatformConfigQuery } from '../../platforms';
import { isCurrencyCode } from '../../shared/currencies';
import { invitationFieldRefused, invitationsNotConfigured } from '../domain/invitations.errors';
import { invitationCodeOf } from '../domain/invitation/invitation-code';
import { ExistingInvitation } from '../domain/invitation/invitation.decider';
import { InvitationView, invitationView } from '../queries/invitation.view';
import { INVITATION_STREAM } from '../streams';

export interface CreateInvitationInput {
  /** Canonical (lowercased) UMA address; the controller checked its format. */
  inviterUma: string;
  firstName: string | null;
  /** Minor units of the inviter's sending currency. */
  amountToSend: number | null;
  /** In the future; the controller checked it. */
  expiresAt: string | null;
}

/** `POST /invitations`: answers the new PENDING invitation. */
export class CreateInvitation extends Command<InvitationView> {
  constructor(
    readonly platformId: string,
    readonly input: CreateInvitationInput,
  ) {
    super();
  }
}

/**
 * Invitations need the platform's UMA domain (their URL lives on it): without one, 400
 * INVITATIONS_NOT_CONFIGURED. The inviter is the platform's customer with that UMA address.
 */
@CommandHandler(CreateInvitation)
export class CreateInvitationHandler implements ICommandHandler<CreateInvitation, InvitationView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly platforms: PlatformConfigQuery,
    private readonly customers: CustomersQuery,
  ) {}

  async execute({ platformId, input }: CreateInvitation): Promise<InvitationView> {
    const platform = await this.platforms.findRaw(platformId);
    if (!platform?.umaDomain) throw invitationsNotConfigured();
    const inviter = await this.inviterOf(platformId, input.inviterUma);
    const uuid = uuidv7();
    const code = invitationCodeOf(uuid);
    const invitationId = `Invitation:${uuid}`;
    const result = await this.commands.handle(INVITATION_STREAM, streamNameFor(invitationId), {
      type: 'CreateInvitation',
      invitation: {
        invitationId,
        platformId,
        code,
        inviterUma: input.inviterUma,
        inviterCustomerId: inviter.id,
        url: `https://${platform.umaDomain}/i/${code}`,
        firstName: input.firstName,
        amountToSend: input.amountToSend === null ? null : { amount: input.amountToSend, currency: sendingCurrencyOf(platform, inviter) },
        expiresAt: input.expiresAt,
        createdAt: new Date().toISOString(),
      },
    });
    return invitationView(result.state as ExistingInvitation);
  }

  /** `POST /invitations` declares no 404: an address naming none of the platform's customers is a bad field. */
  private async inviterOf(platformId: string, inviterUma: string): Promise<CustomerView> {
    const page = await this.customers.list(platformId, { umaAddress: inviterUma }, { limit: 1, cursor: null });
    const inviter = page.data[0];
    if (!inviter) throw invitationFieldRefused('inviterUma', 'No customer of this platform has this UMA address', 'INVITER_NOT_FOUND');
    return inviter;
  }
}

/**
 * The currency `amountToSend` is in ("the customer's currency"): the first of the platform's
 * supported currencies the inviter holds, as receiver lookups choose the sending currency.
 */
function sendingCurrencyOf(platform: PlatformConfig, customer: CustomerView): string {
  const held = platform.supportedCurrencies.map((entry) => entry.currencyCode).filter((code) => isCurrencyCode(code) && (!customer.currencies || customer.currencies.includes(code)));
  return held[0] ?? 'USD';
}
