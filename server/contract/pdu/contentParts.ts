/** Content → parts with their header elements, shared by the SUBMIT and DELIVER encoders. */
import { requireOctetValue, requirePort } from './inputChecks.js';
import { type Segment, segmentData, segmentText } from './segmenter.js';
import type { HeaderElement, SubmitContent } from './types.js';
import { concatenationElement, portsElement } from './udh.js';

export interface ContentPart {
  segment: Segment;
  elements: HeaderElement[];
}

export function contentParts(content: SubmitContent, concatReference: number): ContentPart[] {
  const portElements: HeaderElement[] = [];
  let segments: Segment[];
  if (content.kind === 'text') {
    segments = segmentText(content.text);
  } else {
    const destination = requirePort(content.destinationPort, 'destinationPort');
    const source = requirePort(content.sourcePort ?? 0, 'sourcePort');
    portElements.push(portsElement({ destination, source }));
    segments = segmentData(content.bytes);
  }
  if (segments.length === 1) {
    return segments.map((segment) => ({ segment, elements: portElements }));
  }
  const reference = requireOctetValue(concatReference, 'concatReference');
  return segments.map((segment, index) => ({
    segment,
    elements: [...portElements, concatenationElement(reference, segments.length, index + 1)],
  }));
}
