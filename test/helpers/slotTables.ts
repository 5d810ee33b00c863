import assert from 'node:assert/strict';
import { SlotTable } from '../../server/src/text/slotTable';
import { verifiedReader, Writer } from '../../server/src/index/cacheCodec';

/** A table as saved and loaded again: a copy sharing nothing with `t`, as a warm start reads it. */
export function viaSavedForm(t: SlotTable): SlotTable {
  const w = new Writer();
  t.write(w);
  const r = verifiedReader(w.finish());
  const back = SlotTable.read(r);
  assert.ok(r.done, 'the saved form is read to its end');
  return back;
}
