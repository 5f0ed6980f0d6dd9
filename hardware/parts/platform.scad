// The clear platforms (2): 3 mm cast acrylic, one at each end of the tower, where the dice
// land and the camera looks through. Laser-cut them from hardware/build/platform.dxf
// (this file with -D flat=true: both panels laid out flat, a 5 mm gap between them).
include <params.scad>

flat = false;
panel = [tower_x, tower_y];

module panel3d() { cube([panel[0], panel[1], acrylic]); }

module platform() panel3d();

if (ASSEMBLY) {} else if (flat) projection() for (i = [0, 1]) translate([0, i * (panel[1] + 5), 0]) panel3d();
else panel3d();
