import { ERASED_PLACEHOLDER, PersonalDataKeys } from '../../infra/crypto/personal-data';
import { beneficialOwnerIdentifierField, documentNumberField } from '../domain/customer/personal-data-fields';
import { CustomerView, DocumentView, StoredCustomerView, StoredDocumentView, maskIdentifier } from './customer.view';

/**
 * Opens the sealed fields of stored views at read time (GETs, lists, command answers, webhooks).
 * A field whose data key was erased is never an error and never the ciphertext: an optional field
 * (a document's number) is left out (null, dropped on the wire), a field the contract requires (a
 * beneficial owner's identifier) answers `[erased]`. A value that does not authenticate (altered)
 * is an error.
 */
export async function openCustomerView(view: StoredCustomerView, keys: PersonalDataKeys): Promise<CustomerView> {
  if (view.customerType === 'INDIVIDUAL') return view;
  const beneficialOwners = await Promise.all(
    view.beneficialOwners.map(async (owner) => {
      const identifier = owner.personalInfo.identifier;
      if (identifier === null || typeof identifier === 'string') return { ...owner, personalInfo: { ...owner.personalInfo, identifier } };
      const opened = await keys.open(identifier, view.id, beneficialOwnerIdentifierField(owner.id));
      return { ...owner, personalInfo: { ...owner.personalInfo, identifier: opened === null ? ERASED_PLACEHOLDER : maskIdentifier(opened) } };
    }),
  );
  return { ...view, beneficialOwners };
}

export async function openDocumentView(view: StoredDocumentView, keys: PersonalDataKeys): Promise<DocumentView> {
  const documentNumber = view.documentNumber === null ? null : await keys.open(view.documentNumber, view.documentHolder, documentNumberField(view.id));
  return { ...view, documentNumber };
}
