/**
 * The countries with a phone numbering plan, as ISO 3166-1 alpha-2 codes (with Ascension, Tristan da Cunha and Kosovo,
 * which have plans of their own): what an organization's `country` may be. The list libphonenumber-js's metadata
 * holds (test/phones.test.ts checks they agree), written out so that a schema can check a country without bundling
 * the plans themselves into every function that reads an organization.
 */
const CODES = new Set(
  (
    'AC AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF ' +
    'CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG ' +
    'GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW ' +
    'KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF ' +
    'NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
    'SN SO SR SS ST SV SX SY SZ TA TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK ' +
    'YE YT ZA ZM ZW'
  ).split(' '),
);

/** Every code an organization's `country` may be, sorted. */
export const COUNTRY_CODES: readonly string[] = [...CODES];

/** The country an organization's national phone forms are read in until it sets its own. */
export const DEFAULT_COUNTRY = 'AU';

/** Whether text is the upper-case code of a country with a numbering plan (`AU`, `NZ`, `US`). */
export const isCountry = (code: string): boolean => CODES.has(code);
