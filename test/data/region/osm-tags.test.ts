// Tag rules: access per mode, hazards' restriction classes, sac_scale, toll, bike oneway.
import { describe, expect, it } from 'vitest';
import {
  accessFor,
  bikeOneway,
  isRestrictedAccess,
  isToll,
  packedAccess,
  parseEle,
  routableHighway,
  sacScale,
  unpackAccess,
} from '../../../data/region/osm-tags.js';
import { AccessClass, AccessMode, HighwayClass } from '../../../data/region/region-graph.js';

describe('OSM tag rules', () => {
  it('keeps routable highway classes and skips areas, proposed and construction', () => {
    expect(routableHighway({ highway: 'path' })).toBe(HighwayClass.Path);
    expect(routableHighway({ highway: 'primary_link' })).toBe(HighwayClass.Primary);
    expect(routableHighway({ highway: 'pedestrian', area: 'yes' })).toBeNull();
    expect(routableHighway({ highway: 'proposed' })).toBeNull();
    expect(routableHighway({ highway: 'construction' })).toBeNull();
    expect(routableHighway({ building: 'yes' })).toBeNull();
  });

  it('lets foot, bicycle and horse override access, and reads access=no as No per mode', () => {
    const t = { highway: 'track', access: 'no', foot: 'yes', bicycle: 'private' };
    expect(accessFor(t, AccessMode.Foot)).toBe(AccessClass.Yes);
    expect(accessFor(t, AccessMode.Bicycle)).toBe(AccessClass.Private);
    expect(accessFor(t, AccessMode.Horse)).toBe(AccessClass.No);
    expect(accessFor({ highway: 'path', foot: 'no' }, AccessMode.Foot)).toBe(AccessClass.No);
    expect(accessFor({ highway: 'path', foot: 'designated' }, AccessMode.Foot)).toBe(AccessClass.Yes);
    expect(accessFor({ highway: 'motorway' }, AccessMode.Bicycle)).toBe(AccessClass.No);
    const packed = packedAccess(t);
    expect(unpackAccess(packed, AccessMode.Bicycle)).toBe(AccessClass.Private);
    expect(unpackAccess(packed, AccessMode.Horse)).toBe(AccessClass.No);
  });

  it('treats private, customers, delivery, permit, destination, agricultural and forestry as restricted, not permissive', () => {
    const restricted = [
      AccessClass.Private,
      AccessClass.Customers,
      AccessClass.Delivery,
      AccessClass.Permit,
      AccessClass.Destination,
      AccessClass.Agricultural,
      AccessClass.Forestry,
    ];
    for (const a of restricted) expect(isRestrictedAccess(a)).toBe(true);
    for (const a of [AccessClass.Yes, AccessClass.Permissive, AccessClass.No]) expect(isRestrictedAccess(a)).toBe(false);
  });

  it('maps sac_scale to T1..T6, toll and toll:* to a toll way, and ele tags to metres', () => {
    expect(sacScale({ sac_scale: 'hiking' })).toBe(1);
    expect(sacScale({ sac_scale: 'difficult_alpine_hiking' })).toBe(6);
    expect(sacScale({ sac_scale: 'T3' })).toBe(0);
    expect(isToll({ toll: 'yes' })).toBe(true);
    expect(isToll({ 'toll:hgv': 'yes' })).toBe(true);
    expect(isToll({ toll: 'no' })).toBe(false);
    expect(parseEle('2942')).toBe(2942);
    expect(parseEle('2942,5 m')).toBe(2942.5);
    expect(parseEle('approx. 2900')).toBeNull();
  });

  it('reads bike oneways from oneway, oneway:bicycle and contraflow cycleways', () => {
    expect(bikeOneway({ oneway: 'yes' })).toBe(1);
    expect(bikeOneway({ oneway: '-1' })).toBe(-1);
    expect(bikeOneway({ oneway: 'yes', 'oneway:bicycle': 'no' })).toBe(0);
    expect(bikeOneway({ oneway: 'yes', cycleway: 'opposite_lane' })).toBe(0);
    expect(bikeOneway({ junction: 'roundabout' })).toBe(1);
    expect(bikeOneway({ highway: 'path' })).toBe(0);
  });
});
