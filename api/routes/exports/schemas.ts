import { yup } from '../../validate';
import { DOCUMENT_LOCALES } from '../../../src/documents';

const day = () => yup.string().max(10);

export const exportQuery = yup.object({
  from: day().required('from is required: a day such as 2026-11-01'),
  to: day().required('to is required: a day such as 2026-11-30'),
});

export const invoiceDocumentsExportQuery = exportQuery.shape({
  locale: yup.string().oneOf([...DOCUMENT_LOCALES], 'locale must be is or en'),
});
