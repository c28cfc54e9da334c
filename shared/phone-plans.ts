/**
 * What shared/phone.ts loads with import() at the first number it reads: the parser alone, so the chunk holds the `min`
 * numbering plans and the code `parsePhoneNumberFromString` reaches (about 118 KB), not the library's formatters and
 * as-you-type reader (importing the package's entry with import() would keep every export: about 180 KB).
 */
export { parsePhoneNumberFromString } from 'libphonenumber-js/min';
