import { Module } from '@nestjs/common';
import { CustomersModule } from './customers.module';
import { ContactVerificationController } from './http/contact-verification.controller';
import { BeneficialOwnersController } from './http/beneficial-owners.controller';
import { CustomersController } from './http/customers.controller';
import { DocumentsController } from './http/documents.controller';
import { EndUserTermsController } from './http/end-user-terms.controller';
import { VerificationsController } from './http/verifications.controller';
import { CompleteKycLinkHandler, IssueKycLinkHandler, KycLinks } from './commands/kyc-links';
import { KycLinkController } from './http/kyc-link.controller';
import { KycLinkPageController } from './http/kyc-link-page.controller';

/**
 * The customers routes, in their own module so that they are registered after the accounts
 * routes whatever imports CustomersModule: Express matches in registration order, and
 * `GET /customers/:customerId` would otherwise swallow `GET /customers/internal-accounts`.
 */
@Module({
  imports: [CustomersModule],
  // EndUserTermsController first: `GET /customers/end-user-terms` before `GET /customers/:customerId`.
  controllers: [EndUserTermsController, CustomersController, ContactVerificationController, DocumentsController, VerificationsController, BeneficialOwnersController, KycLinkController, KycLinkPageController],
  // The hosted KYC/KYB link's handlers live with its routes.
  providers: [IssueKycLinkHandler, CompleteKycLinkHandler, KycLinks],
})
export class CustomersHttpModule {}
