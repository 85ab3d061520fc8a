// When a search's result says it was sent: the day in words near now, the year only
// when it is not this one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dayAndTime } from "../../Public/js/state/format.js";

const at = (y, mo, d, h, mi) => new Date(y, mo - 1, d, h, mi).getTime();

test("today and yesterday are said as such, with the time", () => {
  const now = at(2026, 11, 28, 0, 40);
  assert.equal(dayAndTime(at(2026, 11, 28, 0, 38), now), "Today 00:38");
  assert.equal(dayAndTime(at(2026, 11, 27, 23, 59), now), "Yesterday 23:59");
  // the first of a month: yesterday is the month before's last day
  assert.equal(dayAndTime(at(2026, 11, 30, 9, 5), at(2026, 12, 1, 8, 0)), "Yesterday 09:05");
});

test("older days by date, the year only when it is not this one", () => {
  const now = at(2026, 11, 28, 12, 0);
  const nov3 = new Date(2026, 10, 3).toLocaleDateString(undefined, { day: "numeric", month: "short" });
  assert.equal(dayAndTime(at(2026, 11, 3, 14, 5), now), `${nov3} 14:05`);
  const old = dayAndTime(at(2024, 11, 3, 14, 5), now);
  assert.match(old, /2024/);
  assert.match(old, / 14:05$/);
});
