import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { RequiresPermission } from '../../infra/http/permissions';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { customerNotFound } from '../customers.errors';
import { AddBeneficialOwner, UpdateBeneficialOwner } from '../commands/beneficial-owners';
import { beneficialOwnerNotFound, individualCustomerError } from '../domain/customer/beneficial-owners';
import { BeneficialOwnersQuery, unknownCustomerError } from '../queries/beneficial-owners.query';
import { BeneficialOwnerView } from '../queries/customer.view';
import { beneficialOwnerChanges, toBeneficialOwner } from './customer-mapping';
import { CreateBeneficialOwnerDto, UpdateBeneficialOwnerDto } from './beneficial-owners.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const CUSTOMER_ID_FORMAT: FieldError = { field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId must be a Customer:<uuid> id' };

/**
 * `/beneficial-owners`: a business customer's owners as a resource (docs/customers.md "Beneficial
 * owners"). The owners live in their business's profile; every change is an event on its stream.
 */
@Controller('beneficial-owners')
export class BeneficialOwnersController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly owners: BeneficialOwnersQuery,
  ) {}

  /**
   * Every bad field at once, naming an individual among them; an unknown, deleted or other
   * platform's customer is 404 once the body is otherwise well-formed.
   */
  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<BeneficialOwnerView> {
    const platformId = request.platform.platformId;
    const { value, errors } = checkBody(CreateBeneficialOwnerDto, body);
    if (!hasErrorAt(errors, 'customerId') && !parseId('Customer', value.customerId)) errors.push(CUSTOMER_ID_FORMAT);
    if (!hasErrorAt(errors, 'customerId')) {
      const { error } = await this.owners.businessCustomer(platformId, value.customerId);
      if (error === 'INDIVIDUAL') errors.push(individualCustomerError());
      else if (error === 'NOT_FOUND' && errors.length === 0) throw customerNotFound();
    }
    throwIfAny(errors);
    return this.commandBus.execute(new AddBeneficialOwner(platformId, value.customerId, toBeneficialOwner(value)));
  }

  /** The list declares no 404: a customerId naming no business of the platform is a bad parameter (400). */
  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<BeneficialOwnerView>> {
    const reader = new QueryReader(query, ['customerId']);
    const customerId = reader.id('customerId', 'Customer');
    if (query.customerId === undefined) reader.errors.push({ field: 'customerId', constraint: { format: 'Customer-id' }, message: 'customerId is required' });
    const page = reader.page('BeneficialOwner');
    const found = customerId ? await this.owners.businessCustomer(request.platform.platformId, customerId) : null;
    if (found?.error) reader.errors.push(found.error === 'INDIVIDUAL' ? individualCustomerError() : unknownCustomerError());
    reader.done();
    return this.owners.list(found!.customer!, page);
  }

  /** The reference declares no 400 here: an id that cannot name an owner is not found. */
  @Get(':beneficialOwnerId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('beneficialOwnerId') beneficialOwnerId: string): Promise<BeneficialOwnerView> {
    if (!parseId('BeneficialOwner', beneficialOwnerId)) throw beneficialOwnerNotFound();
    const owner = await this.owners.findById(request.platform.platformId, beneficialOwnerId);
    if (!owner) throw beneficialOwnerNotFound();
    return owner;
  }

  @Patch(':beneficialOwnerId')
  @RequiresPermission('MANAGE')
  @HttpCode(200)
  async update(@Req() request: PlatformRequest, @Param('beneficialOwnerId') beneficialOwnerId: string, @Body() body: unknown): Promise<BeneficialOwnerView> {
    const { value, errors } = checkBody(UpdateBeneficialOwnerDto, body);
    if (!parseId('BeneficialOwner', beneficialOwnerId)) {
      errors.unshift({ field: 'beneficialOwnerId', constraint: { format: 'BeneficialOwner-id' }, message: 'beneficialOwnerId must be a BeneficialOwner:<uuid> id' });
    }
    throwIfAny(errors);
    return this.commandBus.execute(new UpdateBeneficialOwner(request.platform.platformId, beneficialOwnerId, beneficialOwnerChanges(value)));
  }
}
