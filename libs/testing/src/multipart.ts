// Multipart bodies, broken in every way a client or a network can break them, and a raw HTTP client
// that sends them byte for byte (truncated, stalled, aborted): the fuzz cases of every upload route.
import net from 'node:net';

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  /** Makes it a file part. */
  filename?: string;
  contentType?: string;
}

export interface MultipartBody {
  boundary: string;
  contentType: string;
  body: Buffer;
  /** Byte offsets worth cutting at: each delimiter's start and end, each part's headers' end, and the middle of each part's value. */
  cuts: number[];
}

export function multipartBody(parts: MultipartPart[], options: { boundary?: string; close?: boolean } = {}): MultipartBody {
  const boundary = options.boundary ?? 'FuzzBoundary7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  const cuts: number[] = [];
  let length = 0;
  const add = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  for (const part of parts) {
    cuts.push(length);
    add(Buffer.from(`--${boundary}\r\n`));
    cuts.push(length);
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    add(Buffer.from(`content-disposition: ${disposition}\r\n${part.contentType ? `content-type: ${part.contentType}\r\n` : ''}\r\n`));
    cuts.push(length);
    const value = Buffer.from(part.value);
    cuts.push(length + Math.floor(value.length / 2));
    add(value);
    add(Buffer.from('\r\n'));
  }
  cuts.push(length);
  if (options.close ?? true) add(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks), cuts: [...new Set(cuts)].filter((cut) => cut < length) };
}

/** How a raw request ends: all bytes sent, or after `body` the client goes silent, or it drops the connection. */
export type RequestEnding = 'complete' | 'stall' | 'abort';

export interface RawRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The content-length announced; the body's length unless told (more than sent, with `stall` or `abort`). */
  contentLength?: number;
  ending?: RequestEnding;
}

export type RawOutcome = { status: number; headers: Record<string, string>; body: string; closedAfter: boolean; ms: number } | { status: 'closed'; ms: number };

/**
 * Sends a request byte for byte on its own connection (`connection: close`) and reads the answer:
 * the status, headers and body, or `closed` when the server closes without one. Gives up (rejects)
 * after `timeoutMs`, so a server that holds a request forever fails the test instead of hanging it.
 */
export function sendRaw(url: string, request: RawRequest, timeoutMs = 10_000): Promise<RawOutcome> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const ending = request.ending ?? 'complete';
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: RawOutcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => settle(new Error(`no answer within ${timeoutMs} ms (${request.method ?? 'POST'} ${request.path})`)), timeoutMs);
    const answer = (closed: boolean) => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return closed ? settle({ status: 'closed', ms: Date.now() - started }) : undefined;
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const body = received.subarray(end + 4);
      const length = headers['content-length'] === undefined ? Infinity : Number(headers['content-length']);
      if (body.length < length && !closed) return;
      settle({ status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8'), closedAfter: closed || headers.connection === 'close', ms: Date.now() - started });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      answer(false);
    });
    socket.on('close', () => answer(true));
    // A reset after the answer (the server closing while bytes are still unread) is not the test's failure.
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      const head = [
        `${request.method ?? 'POST'} ${request.path} HTTP/1.1`,
        `host: ${hostname}:${port}`,
        'connection: close',
        `content-length: ${request.contentLength ?? request.body.length}`,
        ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
      ].join('\r\n');
      socket.write(`${head}\r\n\r\n`);
      socket.write(request.body);
      if (ending === 'abort') setTimeout(() => settle({ status: 'closed', ms: Date.now() - started }), 50);
    });
  });
}

export interface FuzzCase {
  label: string;
  request: Omit<RawRequest, 'path'>;
  /** What the server may answer: a 4xx, or (an aborted client) nothing. */
  expect: '4xx' | 'timeout' | 'aborted';
}

/**
 * Every broken form of a valid multipart body: cut at each part boundary and mid-value (the bytes
 * that came, announced as the whole), no closing delimiter, no boundary, a wrong one, one longer
 * than 70 characters, part headers of 100 KB, request headers of 100 KB, 1,000 empty parts, a client
 * that stops sending mid-body and one that drops the connection. `headers` go on every request (auth).
 */
export function multipartFuzzCases(parts: MultipartPart[], headers: Record<string, string> = {}): FuzzCase[] {
  const valid = multipartBody(parts);
  const withType = (contentType: string) => ({ ...headers, 'content-type': contentType });
  const cases: FuzzCase[] = valid.cuts.map((cut) => ({
    label: `the body cut at byte ${cut} of ${valid.body.length}`,
    request: { headers: withType(valid.contentType), body: valid.body.subarray(0, cut) },
    expect: '4xx',
  }));
  const unclosed = multipartBody(parts, { close: false });
  const boundary = valid.boundary;
  const longBoundary = 'b'.repeat(71);
  const emptyParts = Buffer.from(`${`--${boundary}\r\n\r\n\r\n`.repeat(1000)}--${boundary}--\r\n`);
  const hugeHeader = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${parts[0]?.name ?? 'field'}"\r\nx-padding: ${'p'.repeat(100 * 1024)}\r\n\r\nvalue\r\n`),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  cases.push(
    { label: 'no closing delimiter', request: { headers: withType(unclosed.contentType), body: unclosed.body }, expect: '4xx' },
    { label: 'a content-type without a boundary', request: { headers: withType('multipart/form-data'), body: valid.body }, expect: '4xx' },
    { label: 'a boundary the body does not use', request: { headers: withType('multipart/form-data; boundary=SomethingElse'), body: valid.body }, expect: '4xx' },
    {
      label: 'a boundary of 71 characters',
      request: { headers: withType(`multipart/form-data; boundary=${longBoundary}`), body: multipartBody(parts, { boundary: longBoundary }).body },
      expect: '4xx',
    },
    { label: 'part headers of 100 KB', request: { headers: withType(valid.contentType), body: hugeHeader }, expect: '4xx' },
    {
      label: 'request headers of 100 KB, and no closing delimiter',
      request: { headers: { ...withType(unclosed.contentType), 'x-padding': 'p'.repeat(100 * 1024) }, body: unclosed.body },
      expect: '4xx',
    },
    { label: '1,000 empty parts', request: { headers: withType(valid.contentType), body: emptyParts }, expect: '4xx' },
    {
      label: 'a client that stops sending mid-body',
      request: { headers: withType(valid.contentType), body: valid.body.subarray(0, Math.floor(valid.body.length / 2)), contentLength: valid.body.length, ending: 'stall' },
      expect: 'timeout',
    },
    {
      label: 'a client that drops the connection mid-body',
      request: { headers: withType(valid.contentType), body: valid.body.subarray(0, Math.floor(valid.body.length / 2)), contentLength: valid.body.length, ending: 'abort' },
      expect: 'aborted',
    },
  );
  return cases;
}
