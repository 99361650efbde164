// nx release's version actions for the apps (nx.json release.version.versionActions): an app has
// no package.json, so its current version is its record in contracts/releases.json (a clean clone
// has it without tags), and nx writes no manifest: tools/contracts/release.ts writes the record,
// the contract snapshot and the tags once nx has decided the versions and written the changelogs.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- nx loads version actions with require() */
const { readFileSync, existsSync } = require('node:fs');
const path = require('node:path');
const { VersionActions } = require('nx/release');

const recordsFile = path.join(__dirname, '../../contracts/releases.json');

class AppVersionActions extends VersionActions {
  validManifestFilenames = null;

  async readCurrentVersionFromSourceManifest() {
    const records = existsSync(recordsFile) ? JSON.parse(readFileSync(recordsFile, 'utf8')) : {};
    const record = records[this.projectGraphNode.name];
    // Before its first release an app is at 0.0.0 (`--first-release` with the specifier 1.0.0 cuts 1.0.0).
    return { currentVersion: record ? record.version : '0.0.0', manifestPath: path.relative(process.cwd(), recordsFile) };
  }

  async readCurrentVersionFromRegistry() {
    return null;
  }

  async readCurrentVersionOfDependency() {
    // Libraries are bundled into the apps, not released: no app depends on another's version.
    return { currentVersion: null, dependencyCollection: null };
  }

  async updateProjectVersion() {
    return [];
  }

  async updateProjectDependencies() {
    return [];
  }
}

module.exports = AppVersionActions;
module.exports.default = AppVersionActions;
