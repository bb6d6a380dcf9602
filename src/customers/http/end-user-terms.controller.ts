import { Controller, Get } from '@nestjs/common';
import { RequiresPermission } from '../../infra/http/permissions';
import { currentEndUserTerms } from '../domain/customer/end-user-terms';

/**
 * The reference's EndUserTerms.
 * @example
 * { "version": "2025-10-13", "url": "https://legal.payments.local/end-user-terms/2025-10-13" }
 */
export interface EndUserTermsView {
  /** The current version: the `termsVersion` a new consent should name. */
  version: string;
  url: string;
}

/**
 * `GET /customers/end-user-terms`. Registered before CustomersController, whose
 * `GET /customers/:customerId` would otherwise take it.
 */
@Controller('customers')
export class EndUserTermsController {
  @Get('end-user-terms')
  @RequiresPermission('VIEW')
  current(): EndUserTermsView {
    return currentEndUserTerms();
  }
}
