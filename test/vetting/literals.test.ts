// findPatternSecrets skips a pattern whose leading literal a text lacks: the literal must be
// something every match contains, read off the pattern's source, or nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leadingLiteral } from '../../server/src/vetting/patterns';

describe('leadingLiteral', () => {
  it('reads the characters every match starts with', () => {
    assert.equal(leadingLiteral(/\bglrt-[A-Za-z0-9_-]{20,64}/g), 'glrt-');
    assert.equal(leadingLiteral(/hooks\.slack\.com\/(?:services|workflows)\/x/g), 'hooks.slack.com/');
    assert.equal(leadingLiteral(/\bgh[usr]_[A-Za-z0-9]{36}/g), 'gh');
    assert.equal(leadingLiteral(/discord(?:app)?\.com/g), 'discord');
    assert.equal(leadingLiteral(/:\/\/[^\s]{0,9}@/g), '://');
  });

  it('leaves out a last character that is quantified', () => {
    assert.equal(leadingLiteral(/abc?d/g), 'ab');
    assert.equal(leadingLiteral(/abc*/g), 'ab');
    assert.equal(leadingLiteral(/abc{0,2}/g), 'ab');
    assert.equal(leadingLiteral(/ab\.?x/g), 'ab');
  });

  it('is empty where no literal is certain', () => {
    assert.equal(leadingLiteral(/AccountKey=(\w+)/gi), '', 'case-insensitive');
    assert.equal(leadingLiteral(/abc|xyz/g), '', 'alternation outside a group');
    assert.equal(leadingLiteral(/\b(?:AKIA|ASIA)[A-Z0-9]{16}/g), '', 'starts with a group');
    assert.equal(leadingLiteral(/[?&;]sig=/g), '', 'starts with a class');
    assert.equal(leadingLiteral(/\b\d{8}:AA/g), '', 'starts with an escape class');
  });

  it('an alternation inside a group or a class does not empty it', () => {
    assert.equal(leadingLiteral(/sk_(?:live|test)_/g), 'sk_');
    assert.equal(leadingLiteral(/key-[|a]/g), 'key-');
  });
});
