import 'reflect-metadata';
import { VerificationError } from '../domain/customer/customer.events';
import { DocumentForm } from './document-form';
import { KycLinkFormDto, parseKycLinkForm } from './kyc-link-form';

const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const OWNER = 'BeneficialOwner:0199a000-0000-7000-8000-000000000002';
const business = { customerId: CUSTOMER, customerType: 'BUSINESS' as const };
const missingField = (resourceId: string, field: string): VerificationError => ({ resourceId, type: 'MISSING_FIELD', field, reason: `${field} is required` });
const form = (value: KycLinkFormDto): DocumentForm<KycLinkFormDto> => ({ value, errors: [{ field: 'file', constraint: {}, message: 'file is required' }], file: undefined });

/** The page's form against what the customer lacks (the HTTP round trip: test/e2e/customers/kyc-link.e2e-spec.ts). */
describe('hosted KYC link form', () => {
  it("takes an owner's missing fields as PATCH /beneficial-owners does (the percentage arrives as text); no document asked, no file needed", () => {
    const missing = [missingField(OWNER, 'personalInfo.birthDate'), missingField(OWNER, 'ownershipPercentage')];
    const parsed = parseKycLinkForm(form({ owners: { [OWNER]: { personalInfo: { birthDate: '1980-01-02' }, ownershipPercentage: '40' } } }), business, missing);
    expect(parsed).toEqual({
      submission: { patch: {}, owners: [{ beneficialOwnerId: OWNER, changes: { ownershipPercentage: 40, personalInfo: { birthDate: '1980-01-02' } } }], document: null },
    });
  });

  it('lists every problem at once: an owner or field not asked for, an asked one left empty, a bad value', () => {
    const missing = [missingField(CUSTOMER, 'businessInfo.taxId'), missingField(OWNER, 'personalInfo.birthDate')];
    const parsed = parseKycLinkForm(
      form({ profile: { businessInfo: { taxId: ' ', legalName: 'Other' } }, owners: { [OWNER]: { personalInfo: { birthDate: 'soon' } }, 'BeneficialOwner:other': { ownershipPercentage: '1' } } }),
      business,
      missing,
    );
    expect('errors' in parsed && parsed.errors.map((error) => error.field)).toEqual([
      'profile.businessInfo.legalName', 'profile.businessInfo.taxId', 'owners.BeneficialOwner:other', `owners.${OWNER}.personalInfo.birthDate`,
    ]);
  });

  it('refuses the main form while the business has no owner', () => {
    const parsed = parseKycLinkForm(form({}), business, [{ resourceId: CUSTOMER, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' }]);
    expect('errors' in parsed && parsed.errors.map((error) => error.message)).toEqual(['Add a beneficial owner first']);
  });
});
