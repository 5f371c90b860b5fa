// The pixel size of an element, followed as it resizes (the editor group is split, a panel opens below it).
// Takes the element itself (a callback ref's state), so an element mounted after the first render is followed.
import { useEffect, useState } from 'react';

export interface Size {
  width: number;
  height: number;
}

export function useSize(el: HTMLElement | null, initial: Size): Size {
  const [size, setSize] = useState(initial);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      const height = Math.round(entry.contentRect.height);
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return size;
}
