// Geometry kernels over flat f64 coordinates (stride 2 = lon,lat or 3 = lon,lat,ele; degrees, metres).
export { freePtr, resultPtr, reserve } from './memory';
export { cumulativeDistances, lineLength, along, slice } from './length';
export { simplify, simplifyWorkBytes } from './simplify';
export { nearestOnLine, nearestWorkBytes } from './nearest';
export { sampleDem } from './dem';
export { profileGain, gainWorkBytes } from './gain';
