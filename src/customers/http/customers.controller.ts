import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { customerNotFound, deletedCustomerConflict } from '../customers.errors';
import { ActiveCustomers } from '../commands/active-customers';
import { CreateCustomer, CreateCustomerInput } from '../commands/create-customer';
import { DeleteCustomer } from '../commands/delete-customer';
import { UpdateCustomer } from '../commands/update-customer';
import { CustomerView } from '../queries/customer.view';
import { CustomersQuery } from '../queries/customers.query';
import { businessPatch, businessProfile, identificationAliasErrors, individualPatch, individualProfile } from './customer-mapping';
import {
  CUSTOMER_TYPES,
  CreateBusinessCustomerDto,
  CreateIndividualCustomerDto,
  UpdateBusinessCustomerDto,
  UpdateIndividualCustomerDto,
} from './customers.dto';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** Not part of the reference's update request; named rather than reported as unknown. */
const IMMUTABLE_FIELDS = ['platformCustomerId'];
const STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;

/**
 * GET and DELETE declare no 400: an id that cannot name a customer is one we do not have (404).
 * PATCH declares 400 and keeps the field error.
 */
function requireCustomerIdOr404(customerId: string): void {
  if (!parseId('Customer', customerId)) throw customerNotFound();
}

/**
 * `/customers`: create, list, read, update, delete. Routes with one segment after `customers/`
 * (`internal-accounts`, `external-accounts`) belong to the accounts context and are registered
 * before these (see src/feature-modules.ts).
 */
@Controller('customers')
export class CustomersController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly customers: ActiveCustomers,
    private readonly query: CustomersQuery,
  ) {}

  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({
    schema: { oneOf: [{ $ref: '#/components/schemas/CreateBusinessCustomerDto' }, { $ref: '#/components/schemas/CreateIndividualCustomerDto' }] },
    examples: {
      individual: {
        summary: 'An individual',
        value: {
          customerType: 'INDIVIDUAL',
          platformCustomerId: 'user-48213',
          region: 'US',
          email: 'jane.doe@example.com',
          phoneNumber: '+14155550123',
          address: { line1: '500 Market Street', line2: 'Apt 12', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
          fullName: 'Jane Doe',
          birthDate: '1990-04-17',
          nationality: 'US',
        },
      },
      business: {
        summary: 'A business',
        value: {
          customerType: 'BUSINESS',
          platformCustomerId: 'org-1207',
          region: 'US',
          email: 'finance@acme.example.com',
          businessInfo: { legalName: 'Acme Widgets LLC', registrationNumber: '5543210', taxId: '84-1234567', entityType: 'LLC', country: 'US', incorporatedOn: '2016-03-01' },
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<CustomerView> {
    const { input, errors } = checkCreateCustomerBody(body);
    throwIfAny(errors);
    return this.commandBus.execute(new CreateCustomer(request.platform.platformId, input!));
  }


  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<CustomerView>> {
    // The reference's filters, plus kycStatus, kybStatus, email and `includeDeleted` (our older
    // name for isIncludingDeleted, kept as an alias).
    const reader = new QueryReader(query, [
      'platformCustomerId', 'customerType', 'createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore', 'region', 'currency',
      'umaAddress', 'isIncludingDeleted', 'kycStatus', 'kybStatus', 'email', 'includeDeleted',
    ]);
    const isIncludingDeleted = reader.boolean('isIncludingDeleted');
    const includeDeleted = reader.boolean('includeDeleted');
    const filters = {
      platformCustomerId: reader.string('platformCustomerId', 128),
      customerType: reader.oneOf('customerType', CUSTOMER_TYPES),
      createdAfter: reader.dateTime('createdAfter'),
      createdBefore: reader.dateTime('createdBefore'),
      updatedAfter: reader.dateTime('updatedAfter'),
      updatedBefore: reader.dateTime('updatedBefore'),
      region: reader.string('region', 2),
      currency: reader.string('currency', 5),
      umaAddress: reader.string('umaAddress', 128),
      kycStatus: reader.oneOf('kycStatus', STATUSES),
      kybStatus: reader.oneOf('kybStatus', STATUSES),
      email: reader.string('email', 254),
      includeDeleted: isIncludingDeleted ?? includeDeleted,
    };
    const page = reader.page('Customer');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  /** A deleted customer is still shown, with `isDeleted: true` (the reference declares no 410 here). */
  @Get(':customerId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<CustomerView> {
    requireCustomerIdOr404(customerId);
    const view = await this.query.findById(request.platform.platformId, customerId);
    if (!view) throw customerNotFound();
    return view;
  }

  @Patch(':customerId')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async update(@Req() request: PlatformRequest, @Param('customerId') customerId: string, @Body() body: unknown): Promise<CustomerView> {
    requirePathId('Customer', 'customerId', customerId);
    const platformId = request.platform.platformId;
    // The body's shape depends on the customer's type, read from its stream (a deleted one is 409).
    const current = await this.customers.load(platformId, customerId, deletedCustomerConflict);
    const immutable: FieldError[] = [];
    let rest: unknown = body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const copy = { ...(body as Record<string, unknown>) };
      for (const field of IMMUTABLE_FIELDS) {
        if (field in copy) {
          immutable.push({ field, constraint: {}, message: `${field} cannot be changed` });
          delete copy[field];
        }
      }
      rest = copy;
    }
    if (current.customerType === 'BUSINESS') {
      const { value, errors } = checkBody(UpdateBusinessCustomerDto, rest);
      throwIfAny([...immutable, ...errors, ...typeChangeErrors(value.customerType, current.customerType)]);
      return this.commandBus.execute(new UpdateCustomer(platformId, customerId, businessPatch(value)));
    }
    const { value, errors } = checkBody(UpdateIndividualCustomerDto, rest);
    const aliasErrors = errors.length === 0 ? identificationAliasErrors(value) : [];
    throwIfAny([...immutable, ...errors, ...aliasErrors, ...typeChangeErrors(value.customerType, current.customerType)]);
    return this.commandBus.execute(new UpdateCustomer(platformId, customerId, individualPatch(value)));
  }

  @Delete(':customerId')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async delete(@Req() request: PlatformRequest, @Param('customerId') customerId: string): Promise<CustomerView> {
    requireCustomerIdOr404(customerId);
    return this.commandBus.execute(new DeleteCustomer(request.platform.platformId, customerId));
  }
}

/**
 * PATCH bodies carry the reference's `customerType` discriminator: the current type is accepted
 * (clients always send it), another one is refused (a customer never changes type).
 */
function typeChangeErrors(given: string | undefined, current: string): FieldError[] {
  if (given === undefined || given === current || !(CUSTOMER_TYPES as readonly string[]).includes(given)) return [];
  return [{ field: 'customerType', constraint: { enum: [current] }, message: `customerType cannot be changed; this customer is ${current}` }];
}

/**
 * The body of `POST /customers` as CreateCustomer takes it, or every bad field: the one parse
 * that the route and each row of a bulk import share.
 */
export function checkCreateCustomerBody(body: unknown): { input: CreateCustomerInput; errors: [] } | { input: null; errors: FieldError[] } {
  if ((body as { customerType?: unknown } | null)?.customerType === 'BUSINESS') {
    const { value, errors } = checkBody(CreateBusinessCustomerDto, body);
    if (errors.length > 0) return { input: null, errors };
    return { input: { customerType: 'BUSINESS', platformCustomerId: value.platformCustomerId ?? null, umaAddress: value.umaAddress ?? null, profile: businessProfile(value) }, errors: [] };
  }
  const { value, errors } = checkBody(CreateIndividualCustomerDto, body);
  for (const error of errors) {
    // This DTO allows only INDIVIDUAL (BUSINESS bodies use the other one): a bad value names every type.
    if (error.field === 'customerType' && error.constraint.enum) {
      error.constraint = { enum: CUSTOMER_TYPES };
      error.message = `customerType must be one of ${CUSTOMER_TYPES.join(', ')}`;
    }
  }
  if (errors.length === 0) errors.push(...identificationAliasErrors(value));
  if (errors.length > 0) return { input: null, errors };
  return { input: { customerType: 'INDIVIDUAL', platformCustomerId: value.platformCustomerId ?? null, umaAddress: value.umaAddress ?? null, profile: individualProfile(value) }, errors: [] };
}
