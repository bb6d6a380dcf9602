import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { AuditResourceLocators } from '../audit';
import { AuditModule } from '../audit';
import { KEY_VAULT, KeyVault } from '../infra/crypto/key-vault';
import { PersonalDataKeys } from '../infra/crypto/personal-data';
import { PG_POOL } from '../infra/postgres/pool';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { currentContext, runWithContext } from '../infra/request-context';
import { readStreamUpTo } from '../webhooks';
import { WebhookMappers } from '../webhooks';
import { WebhooksModule } from '../webhooks';
import { BULK_IMPORT_FILES_DDL, BulkImportFiles } from './bulk-import/bulk-import-files';
import { bulkImportWebhookMapper } from './bulk-import-webhooks';
import { AcceptBulkImportHandler } from './commands/accept-bulk-import';
import { RunBulkImport, RunBulkImportHandler } from './commands/run-bulk-import';
import { BulkImportController } from './http/bulk-import.controller';
import { BulkImportQuery } from './queries/bulk-import.query';
import { BULK_IMPORT_TASK, bulkImportReactor } from './reactors/bulk-import.reactor';
import { CUSTOMER_WEBHOOK_EVENT_TYPES, customerWebhooks, openCustomerWebhooks } from './customer-webhooks';
import { CustomerLifecycleHooks } from './customer-lifecycle-hooks';
import { ActiveCustomers } from './commands/active-customers';
import { ConfirmContactVerificationCodeHandler } from './commands/confirm-contact-verification-code';
import { CreateCustomerHandler } from './commands/create-customer';
import { CustomerKeyClaims } from './commands/customer-key-claims';
import { CustomerSecrets } from './commands/customer-secrets';
import { DeleteCustomerHandler } from './commands/delete-customer';
import { ReleaseCustomerKeysHandler } from './commands/release-customer-keys';
import { SendContactVerificationCodeHandler } from './commands/send-contact-verification-code';
import { SubmitVerificationHandler } from './commands/submit-verification';
import { UpdateCustomerHandler } from './commands/update-customer';
import { AddBeneficialOwnerHandler, UpdateBeneficialOwnerHandler } from './commands/beneficial-owners';
import { BeneficialOwnersQuery } from './queries/beneficial-owners.query';
import { DOCUMENT_FILES_DDL, UploadDocumentHandler } from './commands/upload-document';
import { ReplaceDocumentHandler } from './commands/replace-document';
import { DeleteDocumentHandler } from './commands/delete-document';
import { DocumentsQuery } from './queries/documents.query';
import { customerAuditLocator, customerAuditPresenter } from './queries/customer-audit-locator';
import { CustomersQuery } from './queries/customers.query';
import { customerLifecycleReactor } from './reactors/customer-lifecycle.reactor';

/**
 * The customers context without its HTTP routes (see CustomersHttpModule): other contexts import
 * this module for `CustomersQuery` (customer views) and `CustomerLifecycleHooks`.
 */
@Module({
  imports: [WebhooksModule, AuditModule],
  // Bulk import's routes live here, not in CustomersHttpModule: `customers/bulk/...` never meets `customers/:customerId`.
  controllers: [BulkImportController],
  providers: [
    AcceptBulkImportHandler,
    RunBulkImportHandler,
    BulkImportFiles,
    BulkImportQuery,
    CreateCustomerHandler,
    UpdateCustomerHandler,
    DeleteCustomerHandler,
    ReleaseCustomerKeysHandler,
    UploadDocumentHandler,
    AddBeneficialOwnerHandler,
    UpdateBeneficialOwnerHandler,
    BeneficialOwnersQuery,
    ReplaceDocumentHandler,
    DeleteDocumentHandler,
    DocumentsQuery,
    SubmitVerificationHandler,
    SendContactVerificationCodeHandler,
    ConfirmContactVerificationCodeHandler,
    ActiveCustomers,
    CustomerKeyClaims,
    CustomerSecrets,
    CustomersQuery,
    CustomerLifecycleHooks,
    // Per-customer data keys for secret personal fields, cached briefly in this process.
    { provide: PersonalDataKeys, inject: [KEY_VAULT], useFactory: (vault: KeyVault) => new PersonalDataKeys(vault) },
  ],
  exports: [ActiveCustomers, CustomersQuery, DocumentsQuery, CustomerLifecycleHooks, PersonalDataKeys, BeneficialOwnersQuery],
})
export class CustomersModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly events: EventStoreService,
    private readonly webhookMappers: WebhookMappers,
    private readonly auditLocators: AuditResourceLocators,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly personalData: PersonalDataKeys,
    private readonly tasks: TaskScheduler,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.pool.query(DOCUMENT_FILES_DDL);
    await this.pool.query(BULK_IMPORT_FILES_DDL);
    this.reactors.register(bulkImportReactor(this.tasks));
    this.tasks.register(BULK_IMPORT_TASK, (payload) =>
      // The customers a job creates are the uploader's work (audit history), not the task's.
      runWithContext({ ...currentContext()!, actor: String(payload.actor ?? currentContext()!.actor) }, () => this.commandBus.execute(new RunBulkImport(payload.subjectId))),
    );
    this.webhookMappers.register(bulkImportWebhookMapper(this.events));
    this.reactors.register(customerLifecycleReactor(this.hooks, this.commandBus));
    this.auditLocators.register(customerAuditLocator(this.pool));
    this.auditLocators.registerPresenter(customerAuditPresenter);
    this.webhookMappers.register({
      eventTypes: CUSTOMER_WEBHOOK_EVENT_TYPES,
      toWebhooks: async (event) => openCustomerWebhooks(customerWebhooks(event, await readStreamUpTo(this.events, event)), this.personalData),
    });
  }
}
