import { Module } from '@nestjs/common';
import { CustomersModule } from './customers.module';
import { CustomersController } from './http/customers.controller';
import { DocumentsController } from './http/documents.controller';
import { VerificationsController } from './http/verifications.controller';

/**
 * The customers routes, in their own module so that they are registered after the accounts
 * routes whatever imports CustomersModule: Express matches in registration order, and
 * `GET /customers/:customerId` would otherwise swallow `GET /customers/internal-accounts`.
 */
@Module({
  imports: [CustomersModule],
  controllers: [CustomersController, DocumentsController, VerificationsController],
})
export class CustomersHttpModule {}
