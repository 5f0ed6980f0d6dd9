/**
 * A network told where the die lies (`LearnedModel.offAxisPlaneDeg`, train.py --off-axis-plane): its input is the
 * three colour planes and a fourth plane of the die's angle off the lens axis over that many degrees. The expected
 * values come from torch, computed once (with training/learned/tinynet.py on the path) by:
 *
 *   torch.manual_seed(7)
 *   net = Net([(4, True), (6, False)], 2, channels=4)
 *   for p in net.parameters(): torch.nn.init.uniform_(p, -0.5, 0.5)
 *   base64.b64encode(flat_weights(net).tobytes()); probe_probabilities(net, 6)
 *   x = torch.tensor([2 * np.sin(0.37 * i) for i in range(3 * 36)], dtype=torch.float32).reshape(1, 3, 6, 6)
 *   for v in (0.0, 0.8): softmax(net(torch.cat([x, torch.full((1, 1, 6, 6), v)], 1)))   # rounded to 6 places
 */
import { describe, expect, it } from 'vitest';
import { createRgb } from '../../src/core/image.js';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import { TinyNet } from '../../src/vision/d6/tinyNet.js';
import { withCockedCheck } from '../../src/vision/learned/model.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { topFaceCrop } from '../../src/vision/learned/crop.js';
import { cropInput, LearnedReader, withOffAxisPlane } from '../../src/vision/learned/reader.js';
import { learnedPipelineCrop, shippedLearnedModels } from '../../src/vision/learned/shipped.js';
import { cameraFromFov, offAxisDegrees } from '../../src/vision/learned/topFace.js';

const WEIGHTS = 'uKmCPVCUVz6gmsO8YjORPkjkcj5w0ZE+sFYZvZyw0r4Oj6C+qIl/viSA2D5gh868yISJvSS8R75g/6u8Co2sPgDA6Dh8t20+OpmSPuBU+b6oDjM+7Mn/PqS4gb4gYqY9gDs4PMxQhz5otvY9fFTAvug4v75slto+oK5cvgYA4b5Kv+W+CrjevrjN6T0AwWw9JJyUviBU570oFKA9oIE6PnQJUT5uz4m+WDvxPm4l7z6yzbW+nEntPnS40b6E9qi+ECzKPZQoFj6souM+APEkO1zmrD7cqyq+uoq6vhAfR70o54Q+gAVIvjqx2L7W8Ju+MGa1Pagb9D4AcOI8WF7Ovnw3Zb4q7IE++CIhvqg3ir1ecr4+LDI8Pki4nD6Q0+U+TIQovlh1lD0GEsC+jnX+PpaZq74OVvM+KmPqPvDD3j3aVd2+IAOEvKgCU7609Bw+ZMOQPsaRjj74bSQ+XinEvr5T174gLBc+YKTgvTxLbz6Uz/g+SJwaPkoomr4U2RO+orydPqB9Qj3OkK4+AGH1voBbfL3MsXm+MInCPjD0Xz54Som9PIbtvtBzcb34iM8+AGhbvMCkqbxevey+lq3KPgLR0z62sc2+tpm1vsB2xjwgfJK+bnjRvmytID60tAS+rHgxPshySz6o9uM+hBmYPiKn8L7wTs6+9C3NPoSD2b6oeJw+jgWcvv5qzT5gx5A+bLSwvsCm074IfGC+GBJqviZKkb6EZrQ+sHz7PSCEgL3QEwu9pA5VPsDBUT2wlH29nlDjPuinsD7Qmg89zKywPri13L0uScK+UgiTPkgCjj5ADaY96GnavsTKuD5AqhE9VNGGvnba4b6K74S+ngruPgzyfT5s3WG+5NrTPqxI2z64en4+IH82vcjn7z5oq+e9OJ1VvrCldD5sm1W+ctq6PiQsiL5chTw+dlO8vlCSqr5goc88NMzJPhY0xL54Kwi+QCluPrhGt71aoeW+AG+8uwTRM76Qv/M9KK1SPvDSGb56JoO+CFyXPjCL3L4c4nk+qMNNPugsSz4gm7K+CORNPrLJmL7gzmQ+2GJuvkBi4T2ArrM7+AOxvgDk7b5givG94mSYPkhB6r2wZwS+CPOevkZUub5wSCa9hOcFvsA1Nz5irPg+IAWwvlg8Hb5Y8j0+xMqsvuD4Yr2A0YG+RNGiPsD6Y73wRCg9KDuYPt5ctb7sRIq+AHDGPgBuSz7gcTe9Rj3/Pu5o4D4obl2+kB0PvqTmXT66oZ++Vnn+vjQ4gb6mZuq+sN6hPvCWAT5Ubte+IHWsvLhL9T4arpW+6iCivuAVXD7q17S+FtHuvizTkD4gY4K9SK+HPvDl1L26wPA+ZEpTvtK+1D6UnZG+WPUzvvS9xT4g9mI+tMK6vmD6S70iIZc+4D7GvuDIwDzszJw+kHfDvtTDQj74gfe+BGrvvoArNDx6V+e+QAxsvq59lz6QIsO9yDmrvljt0D64Lfq++CDRPaCFp76wi46+oCcmPSon/D4U7Qe+Ak7+vgDK3D2Qz0u+8gervqxISj5oNUo+7F19vsDUBT0IepQ9UE0XPTgtnr2Y8pO+4leNPrJwwT7sB88+9JrUPmB9xrxgJiQ9VJ5LvkDU8r2UQgM+kHEjPQSFt754K7e+dEZtPixJwz5AUO0+fmacPqxLkz6Im1Y+FJCsPsxKA74YVZ49hK5OPjAx2D2QqTC9IIuGvmAktr54cJO+cHlGPQDU6z64fjq+bpDQvvTx3r5Evkc+CLRUPuTfiL5IpUa+hELGPsK12L4QV5Y+oImJPJCocL5SWfc+zD6ovs7U5j4kLtQ+UPUvPi7Epj64dfg9OF/WPuBq5D0Kqf++HAhYvnh2lT1a7rM+fFIUvgDfOT4EfEM+gPEwPTLz0r50RvU+cON2vlCRoT1EL0e+WK0CPlYLrT4I3Nc9sGZevkDm4j1SldG+XDXXPmZOiT76crc+bHgBPrrt/r5k9rW+1I7ovuiElT6yFPg+6pimPgxlTr6SwJu+zjmUvty/8D7EG/a+LFf6vjCpVD6Q20E9pOCDviYQj75SIfa+';
const SPEC = { channels: 4, size: 6, convs: [{ out: 4, pool: true }, { out: 6, pool: false }], classes: 2 };

const colour = new Float32Array(3 * 36).map((_, i) => 2 * Math.sin(0.37 * i));

describe('a network told where the die lies', () => {
  it('reads four input planes exactly as torch does', () => {
    const net = new TinyNet(SPEC, undefined, decodeWeights(WEIGHTS));
    const probe = new Float32Array(4 * 36).map((_, i) => 2 * Math.sin(0.37 * i));
    [0.443307, 0.556693].forEach((v, j) => expect(net.predict(probe)[j]).toBeCloseTo(v, 5));
    [0.541937, 0.458063].forEach((v, j) => expect(net.predict(withOffAxisPlane(colour, 0))[j]).toBeCloseTo(v, 5));
    [0.611994, 0.388006].forEach((v, j) => expect(net.predict(withOffAxisPlane(colour, 0.8))[j]).toBeCloseTo(v, 5));
  });

  it('gets the colour planes unchanged and then one plane of the given value', () => {
    const x = withOffAxisPlane(colour, 0.25);
    expect(x.length).toBe(4 * 36);
    expect(Array.from(x.subarray(0, 3 * 36))).toEqual(Array.from(colour));
    expect(new Set(x.subarray(3 * 36))).toEqual(new Set([0.25]));
  });

  it("is given, as an outline check, the crop's angle off the lens axis over its degrees (0 where the crop does not say), and scores the die by it", () => {
    const { glare: _glare, ...face } = shippedLearnedModels['xwing'] as LearnedModel;
    const check: LearnedModel = { version: 'check/told', spec: SPEC, classes: ['flat', 'cocked'], inputScale: 1.3, heightRatio: 0.77, trainedOn: 'a test', dataHash: '0'.repeat(64), command: 'none', weightsBase64: WEIGHTS, offAxisPlaneDeg: 30 };
    const reader = new LearnedReader(withCockedCheck({ ...face, cockedCheck: { version: check.version, at: 0.5 } }, check), { minProbability: 0, views: 1 });
    const image = createRgb(40, 40);
    image.data.forEach((_, i) => (image.data[i] = (i * 37) % 251));
    const crop = { image, sizePx: 20 };
    const net = new TinyNet(SPEC, undefined, decodeWeights(WEIGHTS));
    const expected = (deg: number): number => net.predict(withOffAxisPlane(cropInput(crop, check), deg / 30))[1] as number;
    expect(reader.outlineScore({ ...crop, offAxisDeg: 24 })).toBeCloseTo(expected(24), 6);
    expect(reader.outlineScore(crop)).toBeCloseTo(expected(0), 6);
    expect(Math.abs(expected(24) - expected(0))).toBeGreaterThan(1e-4);
  });

  it('does not share its inputs with a reader of a network not told where the die lies, or told over other degrees', () => {
    const { glare: _glare, cockedCheck: _check, partner: _partner, ...face } = shippedLearnedModels['xwing'] as LearnedModel;
    const reader = (m: LearnedModel) => new LearnedReader(m, { minProbability: 0, views: 1 });
    expect(reader(face).sharesInputsWith(reader(face))).toBe(true);
    expect(reader({ ...face, offAxisPlaneDeg: 30 }).sharesInputsWith(reader({ ...face, offAxisPlaneDeg: 30 }))).toBe(true);
    expect(reader({ ...face, offAxisPlaneDeg: 30 }).sharesInputsWith(reader(face))).toBe(false);
    expect(reader(face).sharesInputsWith(reader({ ...face, offAxisPlaneDeg: 30 }))).toBe(false);
    expect(reader({ ...face, offAxisPlaneDeg: 30 }).sharesInputsWith(reader({ ...face, offAxisPlaneDeg: 20 }))).toBe(false);
  });

  it("measures a point's angle off the lens axis from the frame's centre and the field of view: 0 at the centre, half the field at the side", () => {
    const camera = cameraFromFov(1280, 720, 54);
    expect(offAxisDegrees({ x: 640, y: 360 }, camera)).toBe(0);
    expect(offAxisDegrees({ x: 1280, y: 360 }, camera)).toBeCloseTo(27, 10);
    expect(offAxisDegrees({ x: 0, y: 360 }, camera)).toBeCloseTo(27, 10);
    expect(offAxisDegrees({ x: 1280, y: 0 }, camera)).toBeCloseTo((Math.atan(Math.hypot(640, 360) / camera.focalPx) * 180) / Math.PI, 10);
    expect(offAxisDegrees({ x: 1280, y: 360 }, cameraFromFov(1280, 720, 66))).toBeCloseTo(33, 10);
  });

  it("gives every crop cut from a labelled box, and every die a session's pipeline cuts, the angle of its box or located centre", () => {
    const camera = cameraFromFov(1280, 720, 54);
    const crop = topFaceCrop(createRgb(1280, 720), { x: 1000, y: 100, width: 80, height: 80 }, { heightRatio: 0.577, camera, gain: 1, margin: 1.5 });
    expect(crop.offAxisDeg).toBeCloseTo(offAxisDegrees({ x: 1040, y: 140 }, camera), 10);
    const pipeline = learnedPipelineCrop(shippedLearnedModels['xwing'] as LearnedModel, 54, { width: 1280, height: 720 }, 80);
    expect(pipeline.offAxis({ x: 1040, y: 140 })).toBeCloseTo(offAxisDegrees({ x: 1040, y: 140 }, camera), 10);
  });
});
