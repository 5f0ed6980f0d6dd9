// Bearing mount: bolts to the idler-side post and holds a 608 bearing on the pivot axis; an
// M8 bolt through the bearing screws into the tower's idler boss and is the axle.
include <params.scad>

module bearing_mount() difference() {
  union() {
    post_plate(90, w = 40, t = 12);
  }
  translate([-1, 0, 0]) rotate([0, 90, 0]) cylinder(d = axle_d + 4, h = 20);
  translate([12 - bearing_w, 0, 0]) rotate([0, 90, 0]) cylinder(d = bearing_od + fit, h = bearing_w + 1);
}

if (!ASSEMBLY) bearing_mount();
