// Checks (default) or updates (`--update`) the API reports in etc/ against the built dist/
// (`npm run api:check`, `npm run api:update`). A changed public API fails the check until the
// new report is accepted and committed, so no export changes unnoticed.
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const update = process.argv.includes('--update');
let failed = false;

for (const file of ['api-extractor.json', 'api-extractor.testing.json']) {
  const config = ExtractorConfig.loadFileAndPrepare(path.join(root, 'etc', file));
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  const report = path.relative(root, config.reportFilePath);
  if (result.apiReportChanged && !update) {
    const fresh = path.relative(root, config.reportTempFilePath);
    console.error(
      `the public API changed: ${report} differs from the built API (git diff --no-index ${report} ${fresh}); accept it with npm run api:update`,
    );
    failed = true;
  } else if (!result.succeeded) {
    console.error(
      `${report}: API Extractor reported ${result.errorCount} errors and ${result.warningCount} warnings (above)`,
    );
    failed = true;
  } else if (update && result.apiReportChanged) {
    console.log(`updated ${report}`);
  }
}
process.exitCode = failed ? 1 : 0;
