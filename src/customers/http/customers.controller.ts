import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { customerDeleted, customerNotFound } from '../customers.errors';
import { CustomersService } from '../customers.service';
import { CustomerView } from '../queries/customer.view';
import { CustomersQuery } from '../queries/customers.query';
import { businessPatch, businessProfile, individualPatch, individualProfile } from './customer-mapping';
import {
  CUSTOMER_TYPES,
  CreateBusinessCustomerDto,
  CreateIndividualCustomerDto,
  UpdateBusinessCustomerDto,
  UpdateIndividualCustomerDto,
} from './customers.dto';
import { requirePathId } from '../../shared/validation/path-ids';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const IMMUTABLE_FIELDS = ['customerType', 'platformCustomerId', 'umaAddress'];
const STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'] as const;

/**
 * `/customers`: create, list, read, update, delete. Routes with one segment after `customers/`
 * (`internal-accounts`, `external-accounts`) belong to the accounts context and are registered
 * before these (see src/feature-modules.ts).
 */
@Controller('customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly query: CustomersQuery,
  ) {}

  @Post()
  @Idempotent()
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<CustomerView> {
    const platformId = request.platform.platformId;
    const isBusiness = (body as { customerType?: unknown } | null)?.customerType === 'BUSINESS';
    if (isBusiness) {
      const { value, errors } = checkBody(CreateBusinessCustomerDto, body);
      throwIfAny(errors);
      return this.customers.create(platformId, {
        customerType: 'BUSINESS',
        platformCustomerId: value.platformCustomerId,
        umaAddress: value.umaAddress ?? null,
        profile: businessProfile(value),
      });
    }
    const { value, errors } = checkBody(CreateIndividualCustomerDto, body);
    for (const error of errors) {
      if (error.field === 'customerType' && error.constraint !== 'REQUIRED') error.message = `customerType must be one of ${CUSTOMER_TYPES.join(', ')}`;
    }
    throwIfAny(errors);
    return this.customers.create(platformId, {
      customerType: 'INDIVIDUAL',
      platformCustomerId: value.platformCustomerId,
      umaAddress: value.umaAddress ?? null,
      profile: individualProfile(value),
    });
  }

  @Get()
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<CustomerView>> {
    const reader = new QueryReader(query, ['platformCustomerId', 'customerType', 'kycStatus', 'kybStatus', 'region', 'email', 'includeDeleted']);
    const filters = {
      platformCustomerId: reader.string('platformCustomerId', 128),
      customerType: reader.oneOf('customerType', CUSTOMER_TYPES),
      kycStatus: reader.oneOf('kycStatus', STATUSES),
      kybStatus: reader.oneOf('kybStatus', STATUSES),
      region: reader.string('region', 2),
      email: reader.string('email', 254),
      includeDeleted: reader.boolean('includeDeleted'),
    };
    const page = reader.page('Customer');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':customerId')
  async get(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<CustomerView> {
    requirePathId('Customer', 'customerId', customerId);
    const view = await this.query.findById(request.platform.platformId, customerId);
    if (!view) throw customerNotFound();
    if (view.isDeleted) throw customerDeleted();
    return view;
  }

  @Patch(':customerId')
  @HttpCode(200)
  async update(@Req() request: PlatformRequest, @Param('customerId') customerId: string, @Body() body: unknown): Promise<CustomerView> {
    requirePathId('Customer', 'customerId', customerId);
    const platformId = request.platform.platformId;
    const current = await this.customers.loadActive(platformId, customerId);
    const immutable: FieldError[] = [];
    let rest: unknown = body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const copy = { ...(body as Record<string, unknown>) };
      for (const field of IMMUTABLE_FIELDS) {
        if (field in copy) {
          immutable.push({ field, constraint: 'FORMAT', message: `${field} cannot be changed` });
          delete copy[field];
        }
      }
      rest = copy;
    }
    if (current.customerType === 'BUSINESS') {
      const { value, errors } = checkBody(UpdateBusinessCustomerDto, rest);
      throwIfAny([...immutable, ...errors]);
      return this.customers.update(platformId, customerId, businessPatch(value));
    }
    const { value, errors } = checkBody(UpdateIndividualCustomerDto, rest);
    throwIfAny([...immutable, ...errors]);
    return this.customers.update(platformId, customerId, individualPatch(value));
  }

  @Delete(':customerId')
  @HttpCode(200)
  async delete(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<CustomerView> {
    requirePathId('Customer', 'customerId', customerId);
    return this.customers.delete(request.platform.platformId, customerId);
  }
}
