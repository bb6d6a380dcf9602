import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DomainError } from '../../infra/domain/domain-error';
import { HttpResult } from '../../infra/http/http-result';
import { Public } from '../../infra/http/route-metadata';
import { AddBeneficialOwner } from '../commands/beneficial-owners';
import { CompleteKycLink, KYC_LINK_PAGE_PATH, KycLinks, OpenKycLink } from '../commands/kyc-links';
import { DocumentForm, readDocumentForm } from './document-form';
import { KycLinkFormDto, parseKycLinkForm, parseNewOwnerForm } from './kyc-link-form';
import { formPage, outcomePage, pageAgain, refusalPage } from './kyc-link-page';

/**
 * The hosted KYC/KYB page a link opens (docs/customers.md "Hosted KYC/KYB link"). Public: the
 * link's token is the credential, checked by `KycLinks.open`. HTML, not part of the API: left out
 * of the OpenAPI document.
 */
@Controller(KYC_LINK_PAGE_PATH)
@Public()
@ApiExcludeController()
export class KycLinkPageController {
  constructor(
    private readonly links: KycLinks,
    private readonly commandBus: CommandBus,
  ) {}

  @Get(':token')
  async show(@Param('token') token: string): Promise<HttpResult<string>> {
    return asPage(async () => formPage(await this.links.open(token)));
  }

  @Post(':token')
  async submit(@Param('token') token: string, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HttpResult<string>> {
    return asPage(async () => {
      const opened = await this.links.open(token);
      const form = await readDocumentForm(request, response, KycLinkFormDto, 'The verification form');
      if (form.value.newOwner !== undefined) return this.addOwner(opened, form, request.originalUrl);
      const parsed = parseKycLinkForm(form, opened.customer, opened.missing);
      if ('errors' in parsed) return formPage(opened, parsed.errors);
      return outcomePage(await this.commandBus.execute(new CompleteKycLink(opened, parsed.submission)));
    });
  }

  /** The owner form of a business without owners: added as `POST /beneficial-owners` adds it, then the page again. */
  private async addOwner(opened: OpenKycLink, form: DocumentForm<KycLinkFormDto>, path: string): Promise<HttpResult<string>> {
    const parsed = parseNewOwnerForm(form, opened.missing);
    if ('errors' in parsed) return formPage(opened, parsed.errors);
    await this.commandBus.execute(new AddBeneficialOwner(opened.customer.platformId, opened.customer.customerId, parsed.owner));
    return pageAgain(path);
  }
}

/** A refusal (link unusable, form unreadable, customer already verified) is a page, not the API's JSON error. */
async function asPage(render: () => Promise<HttpResult<string>>): Promise<HttpResult<string>> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof DomainError) return refusalPage(error);
    throw error;
  }
}
