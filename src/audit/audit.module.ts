import { Module } from '@nestjs/common';
import { AuditResourceLocators } from './audit-locators';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

@Module({ controllers: [AuditController], providers: [AuditService, AuditResourceLocators], exports: [AuditService, AuditResourceLocators] })
export class AuditModule {}
