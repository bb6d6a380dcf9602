import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { invitationNotFound } from '../domain/invitations.errors';
import { invitationIdOf } from '../domain/invitation/invitation-code';
import { ExistingInvitation } from '../domain/invitation/invitation.decider';
import { InvitationView, invitationView } from '../queries/invitation.view';
import { INVITATION_STREAM } from '../streams';

/** `POST /invitations/{code}/claim`: answers the CLAIMED invitation. */
export class ClaimInvitation extends Command<InvitationView> {
  constructor(
    readonly platformId: string,
    readonly code: string,
    /** Canonical (lowercased) UMA address; the controller checked its format. */
    readonly inviteeUma: string,
  ) {
    super();
  }
}

/** The decider refuses a claimed, cancelled, expired or foreign invitation; a racing cancel is re-decided. */
@CommandHandler(ClaimInvitation)
export class ClaimInvitationHandler implements ICommandHandler<ClaimInvitation, InvitationView> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ platformId, code, inviteeUma }: ClaimInvitation): Promise<InvitationView> {
    const invitationId = invitationIdOf(code);
    if (!invitationId) throw invitationNotFound();
    const result = await this.commands.handle(INVITATION_STREAM, streamNameFor(invitationId), {
      type: 'ClaimInvitation',
      platformId,
      inviteeUma,
      now: new Date().toISOString(),
    });
    return invitationView(result.state as ExistingInvitation);
  }
}
