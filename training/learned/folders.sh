# Labelled folders of links for the training scripts (sourced, not run).
# split NAME FIRST LAST: photos FIRST..LAST (by sorted name) of $DATA as $WORK/NAME/{images,labels}.
split() {
  mkdir -p "$WORK/$1/images" "$WORK/$1/labels"
  cp "$DATA/labels/classes.txt" "$WORK/$1/labels/"
  ls "$DATA/images" | sort | sed -n "$2,$3p" | while read -r f; do
    ln -sf "$(realpath "$DATA/images/$f")" "$WORK/$1/images/$f"
    ln -sf "$(realpath "$DATA/labels/${f%.*}.txt")" "$WORK/$1/labels/${f%.*}.txt"
  done
}
# join DIR SET...: one labelled folder of links to the images and labels of render sets under $RENDERS (classes of the first).
join() {
  local dir=$1; shift
  mkdir -p "$dir/images" "$dir/labels"
  cp "$RENDERS/$1/labels/classes.txt" "$dir/labels/"
  for d in "$@"; do
    for f in "$RENDERS/$d"/images/*.jpg; do
      b=$(basename "$f" .jpg)
      ln -sf "$f" "$dir/images/$b.jpg"
      ln -sf "$RENDERS/$d/labels/$b.txt" "$dir/labels/$b.txt"
    done
  done
}
