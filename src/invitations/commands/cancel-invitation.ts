import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { invitationNotFound } from '../domain/invitations.errors';
import { invitationIdOf } from '../domain/invitation/invitation-code';
import { ExistingInvitation } from '../domain/invitation/invitation.decider';
import { InvitationView, invitationView } from '../queries/invitation.view';
import { INVITATION_STREAM } from '../streams';

/** `POST /invitations/{code}/cancel`: answers the CANCELLED invitation. */
export class CancelInvitation extends Command<InvitationView> {
  constructor(
    readonly platformId: string,
    readonly code: string,
  ) {
    super();
  }
}

/** Only a PENDING invitation of this platform can be cancelled; a racing claim is re-decided. */
@CommandHandler(CancelInvitation)
export class CancelInvitationHandler implements ICommandHandler<CancelInvitation, InvitationView> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ platformId, code }: CancelInvitation): Promise<InvitationView> {
    const invitationId = invitationIdOf(code);
    if (!invitationId) throw invitationNotFound();
    const result = await this.commands.handle(INVITATION_STREAM, streamNameFor(invitationId), {
      type: 'CancelInvitation',
      platformId,
      now: new Date().toISOString(),
    });
    return invitationView(result.state as ExistingInvitation);
  }
}
