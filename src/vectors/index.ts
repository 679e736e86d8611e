export {
  AUTH_REFUSED,
  SERVER_OUTCOMES,
  caseId,
  type FlagNote,
  type HttpRequest,
  type PerpInput,
  type ProtocolSign,
  type ProtocolVerify,
  type ServerOutcome,
  type SetupStep,
  type TestGroup,
  type TypedDataJson,
  type TypedFieldJson,
  type VectorCase,
  type VectorFile,
  type VectorKind,
  type VectorResult,
} from './model.ts'
export { DEFAULT_VECTORS_DIR } from './paths.ts'
export { FAMILIES, generateVectors, writeVectors, serializeVectorFile, fileNameOf } from './generate.ts'
export {
  casesOf,
  loadVectorCases,
  loadVectorFiles,
  SCHEMA_NAME,
  schemaErrors,
  vectorFileNames,
  type LoadedCase,
  type LoadedFile,
} from './load.ts'
export { verifyVectors, protocolMessageValues, type VerifyFinding, type VerifyReport } from './verify.ts'
export { MAIL_PUBLISHED, mailTypedData } from './families/mail.ts'
