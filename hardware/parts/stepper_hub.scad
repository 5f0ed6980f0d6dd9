// Stepper hub: couples the NEMA 17's 5 mm D shaft to the tower's drive boss (the four M3
// holes of the servo horn pattern). An M3 grub screw bears on the shaft's flat.
include <params.scad>

module stepper_hub() difference() {
  cylinder(d = horn_d, h = 14);
  translate([0, 0, -1]) difference() {
    cylinder(d = nema_shaft + 0.2, h = 16, $fn = 24);
    translate([nema_shaft / 2 - 0.5, -5, 0]) cube([5, 10, 16]);
  }
  for (a = [45 : 90 : 315]) rotate([0, 0, a]) translate([horn_bolt_circle / 2, 0, -1]) cylinder(d = m3_hole, h = 16, $fn = 12);
  translate([0, 0, 4]) rotate([0, 90, 0]) cylinder(d = m3_pilot, h = horn_d, $fn = 12);
}

if (!ASSEMBLY) stepper_hub();
