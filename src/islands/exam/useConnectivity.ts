/**
 * Whether the browser is online (the server-rendered page assumes it is), with callbacks when that
 * changes. The callbacks may change between renders; the latest ones are called.
 */
import { useEffect, useRef, useState } from 'react';

export function useConnectivity(handlers: { onOnline?(): void; onOffline?(): void } = {}) {
  const [online, setOnline] = useState(true);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    setOnline(navigator.onLine);
    const goneOnline = () => {
      setOnline(true);
      latest.current.onOnline?.();
    };
    const goneOffline = () => {
      setOnline(false);
      latest.current.onOffline?.();
    };
    addEventListener('online', goneOnline);
    addEventListener('offline', goneOffline);
    return () => {
      removeEventListener('online', goneOnline);
      removeEventListener('offline', goneOffline);
    };
  }, []);
  return online;
}
