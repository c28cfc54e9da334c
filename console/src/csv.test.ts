import { describe, expect, it } from 'vitest';
import { csvField, leadsCsv } from './csv';
import type { Lead } from './types';

/** A lead as the API answers it, with the fields the export reads (the console's tests import nothing of the server's). */
const lead = {
  id: 'lead_01JCZ3Y8M4Q2R5S6T7V8W9X0YZ',
  firstName: 'Olivia',
  lastName: 'Nguyen',
  businessName: null,
  email: 'olivia.nguyen@example.com.au',
  phone: '+61412345001',
  suburb: 'Parramatta',
  status: 'NEW',
  value: 4500,
  statusChangedAt: '2026-11-20T04:12:09.512Z',
  lastInquiryDate: '2026-11-20T04:15:42.118Z',
  createdAt: '2026-11-20T04:12:09.512Z',
  updatedAt: '2026-11-20T04:15:42.118Z',
};

/** The console's CSV export of leads (csv.ts): RFC 4180 fields, and no formula a spreadsheet would run. */
describe('a CSV field', () => {
  it.each([
    ['Olivia', 'Olivia'],
    ['Smith, Jo', '"Smith, Jo"'],
    ['Jo "the plumber" Smith', '"Jo ""the plumber"" Smith"'],
    ['two\nlines', '"two\nlines"'],
    ['ends\r', '"ends\r"'],
    [4500, '4500'],
    [-5, '-5'],
    // A number is no formula, whatever its sign or point: only text from a form is.
    [-12.5, '-12.5'],
    [null, ''],
    [undefined, ''],
    ['', ''],
  ])('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it.each([
    ['=HYPERLINK("http://example.com","x")', '"\'=HYPERLINK(""http://example.com"",""x"")"'],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tindent', "'\tindent"],
    ['\rstart', '"\'\rstart"'],
  ])('opens %j as text, behind an apostrophe', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it.each([
    ['+61412345678', '+61412345678'],
    ['-12', '-12'],
    ['a=b', 'a=b'],
    [' =1', ' =1'],
  ])('leaves %j, a number or no formula at its start, as it is', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('the leads as CSV', () => {
  it('has a header and a line per lead, in the columns’ order, with CRLF line ends', () => {
    const named = { ...lead, id: 'lead_2', firstName: '=cmd', lastName: 'Smith, Jo', value: null } as unknown as Lead;
    const lines = leadsCsv([lead as unknown as Lead, named]).split('\r\n');
    expect(lines[0]).toBe('id,firstName,lastName,businessName,email,phone,suburb,status,value,statusChangedAt,lastInquiryDate,createdAt,updatedAt');
    expect(lines[1]).toBe(`${lead.id},Olivia,Nguyen,,olivia.nguyen@example.com.au,+61412345001,Parramatta,NEW,4500,${lead.statusChangedAt},${lead.lastInquiryDate},${lead.createdAt},${lead.updatedAt}`);
    expect(lines[2]).toBe(`lead_2,'=cmd,"Smith, Jo",,olivia.nguyen@example.com.au,+61412345001,Parramatta,NEW,,${lead.statusChangedAt},${lead.lastInquiryDate},${lead.createdAt},${lead.updatedAt}`);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
  });
});
