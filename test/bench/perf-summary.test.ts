import { describe, expect, it } from 'vitest';
import { categoryOf, frameOf } from '../../bench/kit/perf-summary.js';

// bench/kit/profile.ts --perf reads `perf script` lines; what it tells apart rests on these two.
describe('perf-summary', () => {
  it('names kernel frames apart from the same symbol elsewhere', () => {
    expect(frameOf('ffffffff8a2c1d40 pvm_irq_enable ([kernel.kallsyms])')).toBe(
      '[k] pvm_irq_enable',
    );
    expect(frameOf('   7f3a1c2b writev (/usr/lib/x86_64-linux-gnu/libc.so.6)')).toBe('writev');
    expect(frameOf('3a4b5c JS:*writeFor file:///r/dist/index.js:1389:17 (/tmp/perf-123.map)')).toBe(
      'JS:*writeFor file:///r/dist/index.js:1389:17',
    );
  });

  it('sorts frames into the kinds the summary reports', () => {
    expect(categoryOf('[k] tcp_sendmsg_locked')).toBe('kernel');
    expect(categoryOf('JS:*end node:_http_outgoing:1034:45')).toBe('JS: node internals');
    expect(categoryOf('JS:*writeFor file:///r/dist/index.js:1389:17')).toBe('JS: other');
    expect(categoryOf('Builtins_WeakMapLookupHashIndex')).toBe('V8: WeakMap and WeakSet');
    expect(
      categoryOf('v8::internal::Heap::CombinedGenerationalAndSharedEphemeronBarrierSlow'),
    ).toBe('V8: WeakMap and WeakSet');
    expect(categoryOf('v8::internal::Scavenger::ScavengeObject<…>')).toBe('garbage collector');
    expect(categoryOf('Builtins_PerformPromiseThen')).toBe('builtins: promises, microtasks');
    expect(categoryOf('Builtins_KeyedLoadIC_Megamorphic')).toBe('builtins: property access (ICs)');
    expect(categoryOf('Builtins_CallFunction_ReceiverIsAny')).toBe('builtins: other');
    expect(categoryOf('v8::internal::JsonStringifier::SerializeString')).toBe('V8: JSON');
    expect(categoryOf('v8::internal::StringTable::LookupKey<…>')).toBe('V8: runtime and other');
    expect(categoryOf('llhttp__internal_execute')).toBe('node and libuv (C++)');
    expect(categoryOf('__GI___writev')).toBe('libc');
  });
});
