/**
 * Stands in, in the Lambda bundles, for the parts of the AWS Encryption SDK the functions never run: asn1.js (DER
 * encoding of ECDSA signatures and PEM keys: the suite sealing secrets has no signature, shared/envelope-encryption.ts)
 * and the hierarchical keyring's branch key store (its own DynamoDB client and table). Leaving them out keeps about
 * 170 KB out of the cold start of each function that seals or opens a secret; reaching this is a defect, so it throws.
 */
const unused = (what: string) => (): never => {
  throw new Error(`${what} is not bundled into the functions: secrets are sealed with a suite without signatures and a KMS or raw AES keyring`);
};

/** asn1.js, as the SDK's modules read it at load: `define` answers a model whose every use throws. */
export default { define: () => ({ encode: unused('ECDSA signatures (asn1.js)'), decode: unused('ECDSA signatures (asn1.js)') }), bignum: { BN: unused('ECDSA signatures (bn.js)') } };

/** The branch key store's, as the KMS keyrings' module reads them: no object is one. */
export const isIBranchKeyStoreNode = (_value: unknown): boolean => false;
export const BranchKeyStoreNode = unused('The branch key store (the hierarchical keyring)');
