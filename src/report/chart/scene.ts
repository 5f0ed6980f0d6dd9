/**
 * A chart as a flat list of drawing primitives in pixel coordinates (origin
 * top left, y down). Each chart is built once as a scene and drawn twice: as
 * inline SVG for the HTML report and as a PNG beside it, so the two can never
 * disagree.
 */

/** Extra attributes written on the SVG element only (e.g. `data-role`), so tests and readers can find a shape. */
export type ShapeData = Readonly<Record<string, string | number>>;

export interface RectShape {
  readonly kind: 'rect';
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly fill: string;
  readonly stroke?: string;
  readonly data?: ShapeData;
}

export interface LineShape {
  readonly kind: 'line';
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly stroke: string;
  readonly width: number;
  /** Dash pattern in pixels (on, off). */
  readonly dash?: readonly number[];
  readonly data?: ShapeData;
}

export interface PolylineShape {
  readonly kind: 'polyline';
  readonly points: readonly (readonly [number, number])[];
  readonly stroke: string;
  readonly width: number;
  readonly data?: ShapeData;
}

export interface CircleShape {
  readonly kind: 'circle';
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly fill: string;
  readonly stroke?: string;
  readonly data?: ShapeData;
}

export interface TextShape {
  readonly kind: 'text';
  readonly x: number;
  /** Baseline position. */
  readonly y: number;
  readonly text: string;
  readonly size: number;
  readonly fill: string;
  readonly anchor?: 'start' | 'middle' | 'end';
  readonly bold?: boolean;
  /** Rotation in degrees about (x, y), clockwise. */
  readonly rotate?: number;
  readonly data?: ShapeData;
}

export type Shape = RectShape | LineShape | PolylineShape | CircleShape | TextShape;

export interface Scene {
  readonly width: number;
  readonly height: number;
  /** What the chart shows, in one line: the SVG title (read by screen readers) and the figure caption. */
  readonly title: string;
  readonly background: string;
  readonly shapes: readonly Shape[];
}

/** The font stack charts are drawn with: DejaVu Sans is what Debian ships; the rest cover other systems. */
export const CHART_FONT = '"DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
