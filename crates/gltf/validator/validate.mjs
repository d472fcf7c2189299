// Validates each .glb named on the command line with the Khronos glTF validator and prints
// one JSON line per file: its path and the report's issue summary with every message.
import { readFile } from "node:fs/promises";
import validator from "gltf-validator";

for (const path of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(path));
  const report = await validator.validateBytes(bytes, { maxIssues: 0 });
  const { numErrors, numWarnings, numInfos, numHints, messages } = report.issues;
  console.log(
    JSON.stringify({
      path,
      validatorVersion: report.validatorVersion,
      numErrors,
      numWarnings,
      numInfos,
      numHints,
      messages: messages.map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message })),
      animationCount: report.info?.animationCount,
    }),
  );
}
