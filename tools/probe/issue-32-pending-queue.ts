// Probe of issue 32 against `npm start` (the demo data): the pending queue paged by cursor and
// streamed whole, hostile cursors (truncated, forged, another filter's), limits 0/-1/huge, unknown ids,
// another role's token, paging while reviews and closes commit (the page cache must follow each one),
// and the review's Idempotency-Key recorded in the review's own statement (a retry replays, another
// body is 422, a race runs once). Changes the dev database (it approves, rejects and closes blocks).
//   node tools/probe/issue-32-pending-queue.ts [http://localhost:3000]
// Run 2026-11-28 against `npm start` at 7711c7e (the covering index and the page cache in): 52 checks, all ok.
const GATEWAY = process.argv[2] ?? 'http://localhost:3000';
const api = (path: string) => `${GATEWAY}/api/v2${path}`;

let failures = 0;
function check(what: string, ok: boolean, seen: unknown) {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `\n     → ${JSON.stringify(seen).slice(0, 300)}`}`);
}

async function call(path: string, init: RequestInit & { token?: string; key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.key) headers.set('idempotency-key', init.key);
  const res = await fetch(api(path), { ...init, headers });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text: text.slice(0, 200) };
  }
  return { status: res.status, body, headers: res.headers };
}

async function login(email: string, password: string): Promise<string> {
  const res = await call('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { accessToken?: string } | undefined)?.accessToken ?? (res.body.accessToken as string) ?? (res.body.token as string);
}

interface Listing {
  total: number;
  byStudent: { studentId: number; blocks: { studentBlockId: number }[] }[];
  nextCursor?: string | null;
}
const ids = (listing: Listing) => listing.byStudent.flatMap((group) => group.blocks.map((block) => block.studentBlockId));

const admin = await login('admin@academy.local', 'admin1234');
const teacher = await login('teacher1@academy.local', 'teacher1234');

// The whole listing, streamed, against the walk by cursor.
const whole = await call('/blocks/pending', { token: admin });
const wholeIds = ids(whole.body as unknown as Listing);
check(`whole listing: 200, JSON, total = its blocks (${wholeIds.length}), no nextCursor`, whole.status === 200 && (whole.body as unknown as Listing).total === wholeIds.length && !('nextCursor' in whole.body), whole.body);
const walked: number[] = [];
let cursor: string | null | undefined;
let pages = 0;
do {
  const page = await call(`/blocks/pending?limit=7${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`, { token: admin });
  if (page.status !== 200) {
    check('a page by cursor is 200', false, page);
    break;
  }
  walked.push(...ids(page.body as unknown as Listing));
  cursor = (page.body as unknown as Listing).nextCursor;
  pages++;
} while (cursor && pages < 1000);
check(`walking nextCursor (7 a page, ${pages} pages) reads every pending block once`, walked.length === wholeIds.length && new Set(walked).size === walked.length && [...walked].sort().join() === [...wholeIds].sort().join(), { walked: walked.length, whole: wholeIds.length });

// Hostile cursors and combinations: a 400 naming `after`, never a 500.
for (const after of ['x'.repeat(10_000), '%00', '1.1%00', '1.-1', '99999999999999999999.1', '1.99999999999999', "1.1' or 1=1 --", '１.１', 'n.0', '0x1.2']) {
  const res = await call(`/blocks/pending?limit=5&after=${after}`, { token: admin });
  const path = (res.body.details as { path?: string }[] | undefined)?.[0]?.path;
  check(`after=${after.slice(0, 24)}${after.length > 24 ? '…' : ''}: 400 VALIDATION_ERROR naming after`, res.status === 400 && res.body.code === 'VALIDATION_ERROR' && path === 'after', { status: res.status, body: res.body });
}
for (const query of ['after=1.2', 'limit=5&page=2&after=1.2', 'limit=5&after=1.2&after=3.4']) {
  const res = await call(`/blocks/pending?${query}`, { token: admin });
  check(`${query}: 400`, res.status === 400, res);
}
const far = await call('/blocks/pending?limit=5&after=n.2147483647', { token: admin });
check('a cursor past the end: 200, an empty page, nextCursor null', far.status === 200 && (far.body as unknown as Listing).total === 0 && far.body.nextCursor === null, far.body);
const early = await call('/blocks/pending?limit=5&after=-9007199254740991.1', { token: admin });
const firstPage = await call('/blocks/pending?limit=5', { token: admin });
check('a cursor before every block (its lowest time): 200, the first page', early.status === 200 && JSON.stringify(early.body) === JSON.stringify(firstPage.body), early.body);
const asTeacher = await call(`/blocks/pending?limit=5&after=${encodeURIComponent(String(cursor ?? '1.1'))}`, { token: teacher });
check("a teacher's token: 401", asTeacher.status === 401, asTeacher);
for (const token of ['', 'x.y.z', `${admin.slice(0, -4)}AAAA`]) {
  const res = await call('/blocks/pending?limit=5', { token });
  check(`a token ${token ? 'forged' : 'missing'}: 401`, res.status === 401, res);
}

// Limits and ids out of range: a 400 naming the field; unknown ids: an empty page, never a 500.
for (const [query, field] of [
  ['limit=0', 'limit'],
  ['limit=-1', 'limit'],
  ['limit=1001', 'limit'],
  ['limit=99999999999999999999', 'limit'],
  ['limit=1e3', 'limit'],
  ['limit=5&page=0', 'page'],
  ['limit=5&subjectId=abc', 'subjectId'],
  ['limit=5&studentId=-4', 'studentId'],
  ['limit=5&subjectId=1&subjectId=2', 'subjectId'],
] as const) {
  const res = await call(`/blocks/pending?${query}`, { token: admin });
  const path = (res.body.details as { path?: string }[] | undefined)?.[0]?.path;
  check(`${query}: 400 naming ${field}`, res.status === 400 && path === field, { status: res.status, body: res.body });
}
const thousand = await call('/blocks/pending?limit=1000', { token: admin });
check(`limit=1000 (the most): 200, every pending block (${wholeIds.length}) when fewer`, thousand.status === 200 && (thousand.body as unknown as Listing).total === Math.min(1000, wholeIds.length), thousand.body.total);
for (const query of ['subjectId=2147483647&limit=5', 'studentId=2147483647&limit=5', 'subjectId=2147483647']) {
  const res = await call(`/blocks/pending?${query}`, { token: admin });
  check(`${query} (unknown): 200, nothing listed`, res.status === 200 && res.body.total === 0 && (res.body.byStudent as unknown[]).length === 0, res);
}
const tooBig = await call('/blocks/pending?subjectId=2147483648&limit=5', { token: admin });
check('subjectId=2147483648 (beyond an id): 400', tooBig.status === 400, tooBig);

// Cursors that parse but were never given: a truncated one, a forged one, another filter's. Each is a
// position in the one order (close time, id): the page after it, of this filter, with no block twice.
const subjects = [...new Set((whole.body as unknown as Listing).byStudent.flatMap((group) => (group.blocks as unknown as { subjectId: number }[]).map((block) => block.subjectId)))];
const [subjectA, subjectB] = subjects;
if (subjectA && subjectB) {
  const pageA = await call(`/blocks/pending?subjectId=${subjectA}&limit=3`, { token: admin });
  const cursorA = pageA.body.nextCursor as string | null;
  if (cursorA) {
    const withB = await call(`/blocks/pending?subjectId=${subjectB}&limit=1000&after=${cursorA}`, { token: admin });
    const allB = await call(`/blocks/pending?subjectId=${subjectB}&limit=1000`, { token: admin });
    const idsAfter = ids(withB.body as unknown as Listing);
    const idsAll = ids(allB.body as unknown as Listing);
    check("subject A's cursor with subject B: 200, subject B's blocks after that position (a tail of B's listing, each once)", withB.status === 200 && new Set(idsAfter).size === idsAfter.length && idsAll.slice(idsAll.length - idsAfter.length).join() === idsAfter.join(), { after: idsAfter.length, all: idsAll.length });
    const [micros, id] = cursorA.split('.') as [string, string];
    for (const forged of [`${micros.slice(0, -3)}.${id}`, `${micros}.${id.slice(0, -1) || '1'}`, `${micros}.2147483647`, `0.1`, `n.1`]) {
      const res = await call(`/blocks/pending?subjectId=${subjectA}&limit=1000&after=${forged}`, { token: admin });
      const listed = ids(res.body as unknown as Listing);
      const allA = ids((await call(`/blocks/pending?subjectId=${subjectA}&limit=1000`, { token: admin })).body as unknown as Listing);
      check(`a forged or truncated cursor ${forged}: 200, a tail of the listing, each block once`, res.status === 200 && new Set(listed).size === listed.length && allA.slice(allA.length - listed.length).join() === listed.join(), { status: res.status, listed: listed.length });
    }
  }
}

// Paging by cursor while reviews and closes commit: no block twice; every block pending from the
// start to the end of the walk is read once (the contract: keyset pages; what changes during the walk
// may or may not appear). Also: every page equals the one a fresh request answers just after it (the
// page cache follows every commit).
{
  const before = new Set(ids((await call('/blocks/pending', { token: admin })).body as unknown as Listing));
  const toReview = [...before].slice(-12);
  let stale = 0;
  const reviews = (async () => {
    const answers: number[] = [];
    for (const [i, id] of toReview.entries()) {
      const res = await call(`/blocks/student-block/${id}/review`, { method: 'POST', token: admin, headers: { 'content-type': 'application/json' }, body: JSON.stringify(i % 2 ? { action: 'approve' } : { action: 'reject', reason: 'probe' }) });
      answers.push(res.status);
      // Once the review has answered, a page (cached) lists what the whole listing (never cached) lists.
      const [page, listing] = await Promise.all([call('/blocks/pending?limit=1000', { token: admin }), call('/blocks/pending', { token: admin })]);
      if (ids(page.body as unknown as Listing).join() !== ids(listing.body as unknown as Listing).join()) stale++;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    return answers;
  })();
  const seen: number[] = [];
  let after: string | null | undefined;
  do {
    const res = await call(`/blocks/pending?limit=4${after ? `&after=${after}` : ''}`, { token: admin });
    if (res.status !== 200) break;
    seen.push(...ids(res.body as unknown as Listing));
    after = res.body.nextCursor as string | null;
    await new Promise((resolve) => setTimeout(resolve, 5));
  } while (after);
  const answers = await reviews;
  const afterwards = new Set(ids((await call('/blocks/pending', { token: admin })).body as unknown as Listing));
  const steady = [...before].filter((id) => afterwards.has(id));
  check(`walking 4 a page while ${toReview.length} reviews commit: every review 200 (${answers.join(',')})`, answers.every((status) => status === 200), answers);
  check(`… no block listed twice (${seen.length} read)`, new Set(seen).size === seen.length, seen);
  check(`… every block pending throughout (${steady.length}) read once`, steady.every((id) => seen.includes(id)), steady.filter((id) => !seen.includes(id)));
  check('… the reviewed blocks are gone from the listing at once', toReview.every((id) => !afterwards.has(id)), toReview.filter((id) => afterwards.has(id)));
  check('… after each review, a page (cached) lists what the whole listing (never cached) lists', stale === 0, stale);
}

// The review's key in its own statement, on blocks still pending.
const [first, second, third] = ids((await call('/blocks/pending', { token: admin })).body as unknown as Listing);
if (first && second && third) {
  const review = (id: number, key: string, body: object) =>
    call(`/blocks/student-block/${id}/review`, { method: 'POST', token: admin, key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const key = `probe-32-${Date.now()}`;
  const a = await review(first, key, { action: 'approve' });
  const b = await review(first, key, { action: 'approve' });
  check('a keyed approval, then its retry: 200 twice, the second replayed with the same body', a.status === 200 && b.status === 200 && b.headers.get('idempotent-replayed') === 'true' && JSON.stringify(a.body) === JSON.stringify(b.body), [a, b]);
  const c = await review(first, key, { action: 'reject', reason: 'otra' });
  check('the same key with another body: 422 IDEMPOTENCY_KEY_REUSED', c.status === 422 && c.body.code === 'IDEMPOTENCY_KEY_REUSED', c);
  const raceKey = `${key}-race`;
  const race = await Promise.all(Array.from({ length: 12 }, () => review(second, raceKey, { action: 'reject', reason: 'carrera' })));
  const executed = race.filter((res) => res.status === 200 && res.headers.get('idempotent-replayed') !== 'true');
  check('12 concurrent keyed rejections: one executed, the others replayed or 409', executed.length === 1 && race.every((res) => res.status === 200 || (res.status === 409 && res.body.code === 'IDEMPOTENCY_KEY_IN_USE')), race.map((res) => res.status));
  const unkeyed = await call(`/blocks/student-block/${first}/review`, { method: 'POST', token: admin, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'approve' }) });
  check('an unkeyed review of the block approved: 400 INVALID_STATUS_FOR_REVIEW', unkeyed.status === 400 && unkeyed.body.code === 'INVALID_STATUS_FOR_REVIEW', unkeyed);
  const badKey = await review(third, 'x'.repeat(300), { action: 'approve' });
  check('a key of 300 characters: 400, the block still pending', badKey.status === 400, badKey);
  const stillPending = ids((await call('/blocks/pending', { token: admin })).body as unknown as Listing).includes(third);
  check('… and the block is still pending', stillPending, stillPending);
}
console.log(failures ? `\n${failures} FAILED` : '\nall ok');
process.exitCode = failures ? 1 : 0;
