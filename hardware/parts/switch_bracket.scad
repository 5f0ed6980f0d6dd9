// Switch bracket (print 2: home and limit; mirror one in the slicer). Bolts to the idler-side
// post (one M5) just below the bearing mount and holds a lever microswitch (two M2 self-tapping)
// facing the tower's front wall: at rest the wall holds the lever down (home switch, D3);
// the limit switch (D2) goes on the opposite face, 5° beyond the end of travel.
include <params.scad>

module switch_bracket() {
t = 4;
arm = idler_gap + side_wall + 4;   // reaches over the tower's side wall

difference() {
  union() {
    post_plate(40, w = extrusion, t = t, holes = 1);
    translate([0, -extrusion / 2, 20 - t]) cube([arm, extrusion, t]);                        // arm along x
    translate([arm - switch_len - 2, -extrusion / 2, 20 - t - switch_height]) cube([switch_len + 2, t, switch_height + t]);  // switch seat
  }
  for (i = [-1, 1]) translate([arm - switch_len / 2 - 1 + i * switch_hole_pitch / 2, -extrusion / 2 - 1, 20 - t - switch_height / 2]) rotate([-90, 0, 0]) cylinder(d = m2_pilot, h = t + 2, $fn = 12);
}
}

if (!ASSEMBLY) switch_bracket();
