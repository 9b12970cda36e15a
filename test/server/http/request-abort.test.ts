import { describe, expect, it } from 'vitest';
import { abortSignalOf } from '../../../lib/cancel-signal.js';
import { ApiError } from '../../../server/errors.js';
import { RequestAbort } from '../../../server/http/request-abort.js';

describe("a request's cancellation", () => {
  it('calls each listener once on abort, not one removed before, and its AbortSignal aborts with the reason', () => {
    const abort = new RequestAbort();
    const heard: string[] = [];
    const kept = () => heard.push('kept');
    const removed = () => heard.push('removed');
    abort.addEventListener('abort', kept);
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    const signal = abort.signal;
    expect(abort.aborted).toBe(false);
    const reason = new ApiError('GATEWAY_TIMEOUT');
    abort.abort(reason);
    abort.abort(new Error('a second abort changes nothing'));
    expect(heard).toEqual(['kept']);
    expect(abort.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('does not call a listener added after the abort, as an AbortSignal does not', () => {
    const abort = new RequestAbort();
    abort.abort(new Error('gone'));
    let called = false;
    abort.addEventListener('abort', () => {
      called = true;
    });
    expect(called).toBe(false);
    expect(abort.signal.aborted).toBe(true);
  });

  it('becomes a real AbortSignal where one is needed; an AbortSignal stays itself', () => {
    const abort = new RequestAbort();
    const signal = abortSignalOf(abort);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    abort.abort(new Error('gone'));
    expect(signal.aborted).toBe(true);
    const already = new RequestAbort();
    already.abort(new Error('gone'));
    expect(abortSignalOf(already).aborted).toBe(true);
    const real = new AbortController().signal;
    expect(abortSignalOf(real)).toBe(real);
  });
});
