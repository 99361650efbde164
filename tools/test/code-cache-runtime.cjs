// Jest's runtime (`runtime` in jest.preset.js) with V8's code cache kept between test files.
//
// Jest gives each test file a fresh module registry in a fresh `vm` context, so every file compiles every module it
// loads again (its own code, the libs, express, pg, amqplib, OpenTelemetry…): jest-runtime builds each ES module
// with `new vm.SourceTextModule(code)` and each CommonJS one with `vm.compileFunction(code)`, without V8's
// `cachedData`. Here both get it: the first compile of a source makes its code cache (V8's serialized bytecode of
// what it compiled eagerly), kept in memory for the worker's next files and on disk under Jest's cache directory
// (`<cacheDirectory>/v8-code-cache/`) for the next worker and the next run, keyed by a hash of the code (after the
// transform), the function's parameters, Node's version and V8's flags. A cache V8 rejects (another V8, other flags)
// is compiled without one and replaced. Nothing else changes: each file still gets its own modules, evaluated afresh.
// The sources themselves are read once a worker too (`sources` below), not once a test file.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- Jest require()s its runtime: this is a CommonJS module */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/** Only sources this long are worth a cache entry (a file read and a hash cost more than parsing a few lines). */
const MIN_SOURCE_LENGTH = 512;
const SALT = `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;

/** key → cache data: what this process made or read; `null` when there is none yet. */
const memory = new Map();
/** file → its last code and key: a file loaded again by the next test file is compared, not hashed again. */
const keys = new Map();
let directory;

function keyOf(file, code, extra) {
  const known = keys.get(file);
  if (known && known.extra === extra && known.code === code) return known.key;
  const key = crypto.hash('sha1', `${SALT}\0${extra}\0${code}`);
  if (file) keys.set(file, { code, extra, key });
  return key;
}

function read(key) {
  if (memory.has(key)) return memory.get(key);
  let data = null;
  if (directory) {
    try {
      data = fs.readFileSync(path.join(directory, key.slice(0, 2), key));
    } catch {
      // not made yet
    }
  }
  memory.set(key, data);
  return data;
}

function write(key, data) {
  if (!data || data.length === 0) return;
  memory.set(key, data);
  if (!directory) return;
  try {
    const file = path.join(directory, key.slice(0, 2), key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // written aside, then renamed: another worker reads a whole entry or none
    const aside = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(aside, data);
    fs.renameSync(aside, file);
  } catch {
    // a cache that cannot be written is only slower
  }
}

const { SourceTextModule } = vm;
if (SourceTextModule && !SourceTextModule.codeCached) {
  class CachedSourceTextModule extends SourceTextModule {
    static codeCached = true;

    constructor(code, options = {}) {
      if (options.cachedData || typeof code !== 'string' || code.length < MIN_SOURCE_LENGTH) {
        super(code, options);
        return;
      }
      const key = keyOf(options.identifier, code, 'module');
      const cachedData = read(key);
      if (cachedData) {
        try {
          super(code, { ...options, cachedData });
          return;
        } catch (error) {
          if (error?.code !== 'ERR_VM_MODULE_CACHED_DATA_REJECTED') throw error;
          memory.set(key, null);
        }
      }
      super(code, options);
      // before it is linked and evaluated, the only time V8 allows it
      write(key, this.createCachedData());
    }
  }
  vm.SourceTextModule = CachedSourceTextModule;
}

const { compileFunction } = vm;
if (!compileFunction.codeCached) {
  const cachedCompileFunction = function (code, params = [], options = {}) {
    if (options.cachedData || options.produceCachedData || typeof code !== 'string' || code.length < MIN_SOURCE_LENGTH) {
      return compileFunction(code, params, options);
    }
    const key = keyOf(options.filename, code, `function(${params.join(',')})`);
    const cachedData = read(key);
    if (cachedData) {
      const fn = compileFunction(code, params, { ...options, cachedData });
      if (!fn.cachedDataRejected) return fn;
      memory.set(key, null);
    }
    const fn = compileFunction(code, params, { ...options, produceCachedData: true });
    if (fn.cachedDataProduced) write(key, fn.cachedData);
    return fn;
  };
  cachedCompileFunction.codeCached = true;
  vm.compileFunction = cachedCompileFunction;
}

/**
 * file → { mtimeMs, buffer, text }: the sources the worker's test files read, shared by them. jest-runtime's FileCache
 * lives one test file, so each file read every module it loads from disk again (~1,900 for a service's); here a
 * file under node_modules is read once a worker, one of the repository again when its mtime changed (a stat, not a read).
 */
const sources = new Map();
const isDependency = (file) => file.includes(`${path.sep}node_modules${path.sep}`);

function sourceOf(file) {
  const known = sources.get(file);
  if (known && (isDependency(file) || fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs === known.mtimeMs)) return known;
  // the time before the read: a file written meanwhile is read again next time
  const mtimeMs = isDependency(file) ? 0 : fs.statSync(file).mtimeMs;
  const entry = { mtimeMs, buffer: fs.readFileSync(file), text: undefined };
  sources.set(file, entry);
  return entry;
}

class CodeCacheRuntime extends Runtime {
  constructor(config, ...rest) {
    super(config, ...rest);
    directory ??= path.join(config.cacheDirectory, 'v8-code-cache');
    // the same FileCache object (the runtime's transform cache holds it too), its two reads from `sources`
    const files = this.fileCache;
    files.readFileBuffer = (file) => {
      let buffer = files.buffers.get(file);
      if (!buffer) {
        buffer = sourceOf(file).buffer;
        files.buffers.set(file, buffer);
      }
      return buffer;
    };
    files.readFile = (file) => {
      let text = files.strings.get(file);
      if (text === undefined) {
        const entry = sourceOf(file);
        text = entry.text ??= entry.buffer.toString();
        files.strings.set(file, text);
      }
      return text;
    };
  }
}

module.exports = CodeCacheRuntime;
module.exports.default = CodeCacheRuntime;
