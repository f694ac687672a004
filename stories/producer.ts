// The timed producer the live stories share: appends a generated run to a
// stream a few events per tick, as an agent writing its log would.
import { useEffect, useState } from 'react';
import { EventStream, type Event } from '../src/index.js';

/** Appends `events` to `stream`, `perTick` every `ms`, from where the stream is. */
export function useProducer(stream: EventStream, events: readonly Event[], perTick = 4, ms = 50) {
  useEffect(() => {
    let i = stream.length;
    const timer = setInterval(() => {
      for (let k = 0; k < perTick && i < events.length; k++) stream.append(events[i++]!);
      if (i >= events.length) clearInterval(timer);
    }, ms);
    return () => clearInterval(timer);
  }, [stream, events, perTick, ms]);
}

/** A new stream that `events` flow into (see {@link useProducer}); `make` runs once. */
export function useProducedStream(make: () => readonly Event[], perTick = 4, ms = 50): EventStream {
  const [stream] = useState(() => new EventStream());
  const [events] = useState(make);
  useProducer(stream, events, perTick, ms);
  return stream;
}
