/**
 * Second security review (issue 36), item 14: every open GET /gateway/v1/events serialises each
 * event again, so hundreds of streams slowed sending for everyone. A token (or the Basic login)
 * holds at most 8 streams, the gateway at most 32; one more is a 429 with a JSON error.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAuth, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';
import { pollUntil } from '../support/pollUntil.js';

let harness: HttpHarness;
const open: IncomingMessage[] = [];
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  for (const response of open.splice(0)) response.destroy();
  await harness.close();
});

interface Answer {
  status: number;
  /** The body of a refusal; a stream's first bytes otherwise. */
  text: string;
  retryAfter: string | undefined;
}

/** Opens GET /gateway/v1/events; a stream stays open (closed after the test). */
function openStream(authorization: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: harness.port,
        path: '/gateway/v1/events',
        headers: { Authorization: authorization },
      },
      (response) => {
        open.push(response);
        response.setEncoding('utf8');
        let text = '';
        const answer = () =>
          resolve({
            status: response.statusCode ?? 0,
            text,
            retryAfter: response.headers['retry-after'],
          });
        response.on('data', (chunk: string) => {
          text += chunk;
          if (response.statusCode === 200 && text.includes(': connected')) answer();
        });
        response.on('end', answer);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('event streams per token and in all (issue 36, item 14)', () => {
  it('gives a token 8 streams and answers the 9th with 429 and a JSON error', async () => {
    const bearer = await harness.bearer(['all:any']);
    for (let index = 0; index < 8; index++) expect((await openStream(bearer)).status).toBe(200);

    const ninth = await openStream(bearer);
    expect(ninth.status).toBe(429);
    expect(JSON.parse(ninth.text)).toEqual({ message: expect.stringMatching(/event streams/) });
    expect(Number(ninth.retryAfter)).toBeGreaterThan(0);
    // Another token and the Basic login have streams of their own.
    expect((await openStream(await harness.bearer(['all:any']))).status).toBe(200);
    expect((await openStream(basicAuth)).status).toBe(200);
  });

  it('gives a stream back to its token when the client closes it', async () => {
    const bearer = await harness.bearer(['all:any']);
    for (let index = 0; index < 8; index++) await openStream(bearer);
    open.shift()?.destroy();
    await pollUntil(async () => (await openStream(bearer)).status === 200, {
      what: 'the closed stream to be counted no more',
    });
  });

  it('opens at most 32 streams in all, whoever asks', async () => {
    for (let index = 0; index < 32; index++) {
      expect((await openStream(await harness.bearer(['all:any']))).status).toBe(200);
    }
    expect((await openStream(await harness.bearer(['all:any']))).status).toBe(429);
  });
});
