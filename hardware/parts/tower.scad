// The flip tower body: N channels side by side (x), each with baffles alternating on the
// front and back walls (y), open at both ends (z) where the clear platforms sit.
// Print standing on one end, 3 perimeters, 40 % infill; the 45° baffle faces need no support.
include <params.scad>

eps = 0.01;

// Front and back walls with their baffles, as one profile in the y-z plane.
module wall_profile() {
  square([wall, tower_z]);
  translate([tower_y - wall, 0]) square([wall, tower_z]);
  for (k = [0 : baffles - 1]) {
    zk = (k + 1) * tower_z / (baffles + 1);
    r = baffle_reach;
    if (k % 2 == 0)
      polygon([[wall - eps, zk - r], [wall + r, zk], [wall - eps, zk + r]]);
    else
      polygon([[tower_y - wall + eps, zk - r], [tower_y - wall - r, zk], [tower_y - wall + eps, zk + r]]);
  }
}

// Screw holes for the end frames and the pivot, on one side wall (x = 0 face).
module side_holes(axle) {
  for (z = [screw_z, tower_z - screw_z], y = [tower_y / 3, 2 * tower_y / 3])
    translate([-1, y, z]) rotate([0, 90, 0]) cylinder(d = m3_pilot, h = side_wall, $fn = 12);
  translate([-7, tower_y / 2, tower_z / 2]) rotate([0, 90, 0]) {
    if (axle) {
      // M8 x 25 axle bolt through the wall, its head sunk flush in the inside face.
      cylinder(d = axle_d + 0.3, h = 7 + side_wall + 2);
      translate([0, 0, 7 + side_wall - 5.5]) cylinder(d = 14.8, h = 6, $fn = 6);
    }
    else {
      cylinder(d = 6, h = 7 + side_wall - 1.2);
      for (a = [45 : 90 : 315]) rotate([0, 0, a]) translate([horn_bolt_circle / 2, 0, 0]) cylinder(d = m3_pilot, h = 7 + side_wall - 1.2, $fn = 12);
    }
  }
}

module tower() {
  difference() {
    union() {
      for (x = [0, tower_x - side_wall]) translate([x, 0, 0]) cube([side_wall, tower_y, tower_z]);
      for (i = [1 : channels - 1])
        translate([side_wall + i * channel_width + (i - 1) * wall, wall - eps, 0]) cube([wall, channel_depth + 2 * eps, tower_z]);
      translate([side_wall - eps, 0, 0]) rotate([90, 0, 90]) linear_extrude(tower_x - 2 * side_wall + 2 * eps) wall_profile();
      // Pivot bosses: the drive side takes the servo horn (or the stepper hub), the other an M8 axle bolt.
      // Both are plain cylinders: the tower's front wall, not a boss, holds the home switch's lever down at rest.
      translate([0, tower_y / 2, tower_z / 2]) rotate([0, -90, 0]) cylinder(d = horn_d + 6, h = 7);
      translate([tower_x, tower_y / 2, tower_z / 2]) rotate([0, 90, 0]) cylinder(d = 24, h = 7);
    }
    side_holes(false);
    translate([tower_x, 0, 0]) mirror([1, 0, 0]) side_holes(true);
  }
}

// For the preview picture only: cut the first channel open to show the baffles.
cutaway = false;
if (ASSEMBLY) {} else if (cutaway) render() difference() { tower(); translate([-20, -1, -1]) cube([side_wall + channel_width / 2 + 20, tower_y + 2, tower_z + 2]); }
else tower();
