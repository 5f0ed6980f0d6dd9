// LED strip holder (print 4: two on each light bar). Sits on a base bar beside the camera
// (one M5 into a T-nut) and holds a 12 V strip in a groove tilted `led_aim` degrees, aimed at
// the platform. The bars stand `led_offset_y` off the camera axis, so the acrylic's mirror
// image of the strip falls outside the camera's view (no glare; see the camera guide).
include <params.scad>

module led_holder() {
len = 60;
base = 5;
groove = led_strip_w + 1;

difference() {
  union() {
    translate([-len / 2, -extrusion / 2, 0]) cube([len, extrusion, base]);
    // the strip carrier, tilted about x toward the camera axis (-y)
    translate([-len / 2, 0, base]) rotate([led_aim - 90, 0, 0]) translate([0, -(groove + 4) / 2, 0]) cube([len, groove + 4, 4]);
    translate([-len / 2, -extrusion / 2, 0]) cube([len, extrusion / 2 + 2, base + 6]);
  }
  translate([0, 0, -1]) cylinder(d = m5_hole, h = base + 8, $fn = 16);
  translate([-len / 2 - 1, 0, base]) rotate([led_aim - 90, 0, 0]) translate([0, -groove / 2, 2.5]) cube([len + 2, groove, 4]);
}
}

if (!ASSEMBLY) led_holder();
