import { describe, expect, it } from 'vitest';
import { createAndSend } from '../support/contract-walk.js';
import { sandboxEachTest } from '../support/helpers.js';

const t = sandboxEachTest();

describe('a sequential contract (positions 1, 2, 3, mixed roles)', () => {
  it('notifies one position at a time and emits each event once, in order', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'approve', position: 2 },
      { name: 'Cid', action: 'sign', position: 2 },
      { name: 'Dee', action: 'lock', position: 3 },
      { name: 'Eve', action: 'view', position: 3 },
    ]);
    expect(walk.events()).toEqual(['contract.created Created', 'contract.sent Sent']);
    expect(walk.notified()).toEqual(['Ann']);
    expect(await walk.states()).toEqual({
      Ann: 'notified',
      Bob: 'waiting',
      Cid: 'waiting',
      Dee: 'waiting',
      Eve: 'waiting',
    });

    walk.clearEvents();
    expect((await walk.act('Ann', 'sign')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Seen Ann', 'contract.signed Signed Ann']);
    expect(walk.notified()).toEqual(['Bob', 'Cid']);

    walk.clearEvents();
    expect((await walk.act('Bob', 'approve')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Signed Bob', 'contract.approved Approved Bob']);
    expect(walk.notified()).toEqual([]);
    expect(await walk.status()).toBe('Approved');

    walk.clearEvents();
    expect((await walk.act('Cid', 'sign')).status).toBe(200);
    expect(walk.events()).toEqual([
      'contract.seen Approved Cid',
      'contract.signed Signed Cid',
      'contract.fully_signed Fully signed',
    ]);
    expect(walk.notified()).toEqual(['Dee', 'Eve']);

    walk.clearEvents();
    expect((await walk.act('Dee', 'lock')).status).toBe(200);
    expect((await walk.act('Eve', 'view')).status).toBe(200);
    expect(walk.events()).toEqual(['contract.seen Fully signed Dee', 'contract.seen Fully signed Eve']);
    expect(await walk.states()).toEqual({
      Ann: 'signed',
      Bob: 'approved',
      Cid: 'signed',
      Dee: 'locked',
      Eve: 'viewed',
    });
    expect(await walk.status()).toBe('Fully signed');
  });

  it('refuses a later position with a message naming the open one', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'sign', position: 2 },
      { name: 'Cid', action: 'sign', position: 3 },
    ]);
    expect((await walk.act('Cid', 'sign')).body.message).toBe(
      'Recipient at position 3 cannot sign before position 1 is done',
    );
    await walk.act('Ann', 'sign');
    expect((await walk.act('Cid', 'view')).body.message).toBe(
      'Recipient at position 3 cannot view before position 2 is done',
    );
  });

  it('holds a position open until every signer, approver and locker in it has acted', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign', position: 1 },
      { name: 'Bob', action: 'lock', position: 1 },
      { name: 'Cid', action: 'sign', position: 2 },
    ]);
    await walk.act('Ann', 'sign');
    expect((await walk.states()).Cid).toBe('waiting');
    await walk.act('Bob', 'lock');
    expect((await walk.states()).Cid).toBe('notified');
  });
});

describe('a parallel contract (no positions)', () => {
  it('notifies everyone at send and fires fully_signed once, after the last signer', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'sign' },
      { name: 'Bob', action: 'sign' },
      { name: 'Cid', action: 'approve' },
      { name: 'Dee', action: 'view' },
    ]);
    expect(walk.notified()).toEqual(['Ann', 'Bob', 'Cid', 'Dee']);
    walk.clearEvents();
    await walk.act('Bob', 'view');
    await walk.act('Cid', 'approve');
    await walk.act('Bob', 'sign');
    expect(await walk.status()).toBe('Signed');
    await walk.act('Ann', 'sign');
    await walk.act('Dee', 'view');
    expect(walk.events()).toEqual([
      'contract.seen Seen Bob',
      'contract.seen Seen Cid',
      'contract.approved Approved Cid',
      'contract.signed Signed Bob',
      'contract.seen Signed Ann',
      'contract.signed Signed Ann',
      'contract.fully_signed Fully signed',
      'contract.seen Fully signed Dee',
    ]);
    expect(walk.notified()).toEqual([]);
  });

  it('defaults a recipient without an action to sign', async () => {
    const walk = await createAndSend(t, [{ name: 'Ann' }]);
    expect((await walk.inspect()).recipients[0].action).toBe('sign');
    await walk.act('Ann', 'sign');
    expect(await walk.status()).toBe('Fully signed');
  });

  it('never becomes Fully signed without a sign recipient', async () => {
    const walk = await createAndSend(t, [
      { name: 'Ann', action: 'approve' },
      { name: 'Bob', action: 'lock' },
    ]);
    await walk.act('Ann', 'approve');
    await walk.act('Bob', 'lock');
    expect(await walk.status()).toBe('Approved');
    expect(walk.events().filter((e) => e.includes('fully_signed'))).toEqual([]);
  });
});

describe('a mixed contract (some positioned, some not)', () => {
  it('notifies unpositioned recipients at send, and view recipients never hold up the order', async () => {
    const walk = await createAndSend(t, [
      { name: 'Viv', action: 'view', position: 1 },
      { name: 'Ann', action: 'sign', position: 2 },
      { name: 'Una', action: 'approve' },
      { name: 'Wes', action: 'view', position: 3 },
      { name: 'Bob', action: 'sign', position: 3 },
    ]);
    // Position 1 holds only a viewer, so position 2 is the lowest open one: both are notified together.
    expect(walk.notified()).toEqual(['Viv', 'Ann', 'Una']);
    walk.clearEvents();
    await walk.act('Ann', 'sign');
    expect(walk.notified()).toEqual(['Wes', 'Bob']);
    await walk.act('Bob', 'sign');
    expect(await walk.status()).toBe('Fully signed');
    expect(walk.events()).toEqual([
      'contract.seen Seen Ann',
      'contract.signed Signed Ann',
      'contract.seen Signed Bob',
      'contract.signed Signed Bob',
      'contract.fully_signed Fully signed',
    ]);
    // Viv never viewed and Una never approved: neither blocked anything, and both may still act.
    expect((await walk.act('Una', 'approve')).status).toBe(200);
    expect((await walk.act('Viv', 'view')).status).toBe(200);
    expect(await walk.states()).toEqual({
      Viv: 'viewed',
      Ann: 'signed',
      Una: 'approved',
      Wes: 'notified',
      Bob: 'signed',
    });
  });
});
