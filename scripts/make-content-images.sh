#!/usr/bin/env bash
# Draws the cover images of the editorial content (blog posts, events, portfolio) from scratch:
#   public/images/blog/<slug>.webp        one per post   (src/content/blog/*/<slug>.md)
#   public/images/events/<slug>.webp      one per event  (src/content/events/*/<slug>.md)
#   public/images/portfolio/<id>.webp     one per story  (src/content/portfolio/portfolio.json)
# Each is 800x450: a diagonal two-colour gradient, a soft dot texture and one simple white motif.
#
# Requirements: ImageMagick 6 (`convert`, with WebP support). No text is drawn, so no fonts are needed
# and the images suit both languages.
# Idempotent: every output is deleted and rebuilt on each run.
#
# Usage: scripts/make-content-images.sh        (run from anywhere)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
command -v convert >/dev/null 2>&1 || { echo "error: 'convert' (ImageMagick) not found" >&2; exit 1; }
export LC_ALL=C.UTF-8

W=800
H=450
MAX_BYTES=30000
WEBP=(-strip -quality 80 -define webp:method=6 -define webp:auto-filter=true)
SOFT='rgba(255,255,255,0.20)'
MID='rgba(255,255,255,0.45)'
STRONG='rgba(255,255,255,0.85)'

# ------------------------------------------------------------- motifs ---
# Each appends to ARGS the ImageMagick arguments that draw the motif around (580, 225), leaving the
# left half calm so the image also works cropped or under text.
ARGS=()
add() { ARGS+=("$@"); }
motif() {
  case "$1" in
    plane) # a dashed flight path and a plane seen from above, nose to the upper right
      add -fill none -stroke "$MID" -strokewidth 4 -draw "stroke-dasharray 14 12 path 'M 110,390 Q 330,160 560,230'"
      add -stroke none -fill "$STRONG" -draw "translate 620,190 rotate -28 path 'M -95,0 Q -95,-12 -80,-12 L 80,-12 Q 110,-10 120,0 Q 110,10 80,12 L -80,12 Q -95,12 -95,0 Z'" \
        -draw "translate 620,190 rotate -28 path 'M 10,-10 L -30,-95 L -8,-95 L 50,-10 Z'" \
        -draw "translate 620,190 rotate -28 path 'M 10,10 L -30,95 L -8,95 L 50,10 Z'" \
        -draw "translate 620,190 rotate -28 path 'M -70,-8 L -95,-45 L -80,-45 L -50,-8 Z'" \
        -draw "translate 620,190 rotate -28 path 'M -70,8 L -95,45 L -80,45 L -50,8 Z'"
      ;;
    chat) # two speech bubbles
      add -stroke none -fill "$STRONG" -draw "roundrectangle 430,110 690,230 28,28" -draw "path 'M 470,228 L 460,275 L 510,228 Z'"
      add -fill "$MID" -draw "roundrectangle 520,250 740,350 28,28" -draw "path 'M 700,348 L 712,390 L 668,348 Z'"
      add -fill 'rgba(0,0,0,0.18)' -draw "circle 500,170 510,170" -draw "circle 560,170 570,170" -draw "circle 620,170 630,170"
      ;;
    group) # a small crowd of people
      local x
      for x in 430 505 655 730; do
        add -stroke none -fill "$MID" -draw "circle $x,200 $((x + 26)),200" -draw "roundrectangle $((x - 34)),240 $((x + 34)),350 32,32"
      done
      add -fill "$STRONG" -draw "circle 575,170 575,208" -draw "roundrectangle 520,225 630,370 50,50"
      ;;
    sun) # a sun over the sea
      add -stroke none -fill "$STRONG" -draw "circle 580,190 580,110"
      add -fill none -stroke "$MID" -strokewidth 6 -draw "path 'M 380,300 Q 430,280 480,300 T 580,300 T 680,300 T 780,300'" \
        -draw "path 'M 420,345 Q 470,325 520,345 T 620,345 T 720,345'"
      ;;
    calendar) # a month page with one day marked
      add -stroke none -fill "$STRONG" -draw "roundrectangle 450,100 710,350 18,18"
      add -fill 'rgba(0,0,0,0.22)' -draw "rectangle 450,100 710,150"
      local r c
      for r in 0 1 2 3; do for c in 0 1 2 3 4; do
        add -fill 'rgba(0,0,0,0.12)' -draw "roundrectangle $((470 + c * 46)),$((170 + r * 42)) $((500 + c * 46)),$((198 + r * 42)) 5,5"
      done; done
      add -fill 'rgba(244,163,0,0.95)' -draw "roundrectangle 608,254 638,282 5,5"
      ;;
    chart) # rising bars and a trend line
      local i
      for i in 0 1 2 3 4; do
        add -stroke none -fill "$MID" -draw "roundrectangle $((440 + i * 62)),$((330 - i * 45 - 40)) $((480 + i * 62)),340 8,8"
      done
      add -fill none -stroke "$STRONG" -strokewidth 6 -draw "polyline 430,300 500,250 560,265 630,170 720,110"
      add -stroke none -fill "$STRONG" -draw "circle 720,110 732,110"
      ;;
    checklist) # a list with ticks
      local y
      for y in 130 205 280; do
        add -stroke none -fill "$STRONG" -draw "roundrectangle 440,$y 490,$((y + 50)) 10,10" -fill "$MID" -draw "roundrectangle 515,$((y + 12)) 730,$((y + 38)) 13,13"
        add -fill none -stroke 'rgba(0,0,0,0.45)' -strokewidth 7 -draw "polyline 452,$((y + 26)) 464,$((y + 38)) 480,$((y + 12))"
      done
      ;;
    screen) # a presentation screen with a play button (webinars)
      add -stroke none -fill "$STRONG" -draw "roundrectangle 420,100 740,300 16,16" -draw "rectangle 565,300 595,345" -draw "roundrectangle 500,340 660,356 8,8"
      add -fill 'rgba(0,0,0,0.28)' -draw "path 'M 555,160 L 625,200 L 555,240 Z'"
      ;;
    mountain) # peaks and a sun
      add -stroke none -fill "$MID" -draw "path 'M 360,380 L 520,170 L 640,380 Z'"
      add -fill "$STRONG" -draw "path 'M 480,380 L 640,120 L 800,380 Z'" -draw "circle 470,130 470,100"
      ;;
    globe) # a globe with meridians and parallels
      add -stroke "$STRONG" -strokewidth 5 -fill "$SOFT" -draw "circle 580,225 580,85"
      add -fill none -stroke "$MID" -strokewidth 4 -draw "ellipse 580,225 60,140 0,360" -draw "ellipse 580,225 115,140 0,360" \
        -draw "line 440,225 720,225" -draw "line 460,160 700,160" -draw "line 460,290 700,290"
      ;;
    heart) # two overlapping rings (couples, honeymoons)
      add -fill none -stroke "$STRONG" -strokewidth 12 -draw "circle 530,225 530,135" -stroke "$MID" -draw "circle 640,225 640,135"
      ;;
    book) # an open book
      add -stroke none -fill "$STRONG" -draw "path 'M 580,150 Q 500,110 420,130 L 420,320 Q 500,300 580,340 Z'" \
        -draw "path 'M 590,150 Q 670,110 750,130 L 750,320 Q 670,300 590,340 Z'"
      add -fill none -stroke 'rgba(0,0,0,0.18)' -strokewidth 4 -draw "line 450,180 550,195" -draw "line 450,220 550,235" -draw "line 620,195 720,180" -draw "line 620,235 720,220"
      ;;
    medal) # a ribbon medal (certificates)
      add -stroke none -fill "$MID" -draw "path 'M 540,230 L 500,370 L 545,345 L 570,385 L 590,250 Z'" -draw "path 'M 620,230 L 660,370 L 615,345 L 590,385 L 570,250 Z'"
      add -fill "$STRONG" -draw "circle 580,190 580,100"
      add -fill none -stroke 'rgba(0,0,0,0.2)' -strokewidth 6 -draw "circle 580,190 580,130"
      ;;
    *) echo "unknown motif: $1" >&2; exit 1 ;;
  esac
}

# A faint grid of dots over the whole image, one draw primitive string.
DOTS=""
for ((y = 12; y < H; y += 24)); do for ((x = 12; x < W; x += 24)); do DOTS+="circle $x,$y $((x + 2)),$y "; done; done

# draw OUT COLOUR_A COLOUR_B MOTIF
draw() {
  local out="$1" a="$2" b="$3" m="$4"
  ARGS=()
  motif "$m"
  convert -size "${W}x${H}" -define gradient:angle=125 "gradient:${a}-${b}" \
    -fill 'rgba(255,255,255,0.08)' -stroke none -draw "$DOTS" \
    -fill 'rgba(255,255,255,0.06)' -stroke none -draw "circle 120,460 120,200" -draw "circle 760,-20 760,140" \
    "${ARGS[@]}" \
    "${WEBP[@]}" "$out"
  local size
  size=$(stat -c %s "$out")
  if ((size > MAX_BYTES)); then echo "error: $out is $size bytes (limit $MAX_BYTES)" >&2; exit 1; fi
  echo "$out ($size bytes)"
}

rm -f public/images/blog/*.webp public/images/events/*.webp public/images/portfolio/*.webp
mkdir -p public/images/blog public/images/events public/images/portfolio

# ---------------------------------------------------------------- blog ---
draw public/images/blog/first-travel-sale.webp '#0f4c81' '#1fa2a6' plane
draw public/images/blog/discovery-interview.webp '#4a1f7a' '#b065d0' chat
draw public/images/blog/group-trips.webp '#0b7a4b' '#7bc96f' group
draw public/images/blog/shoulder-season.webp '#c2410c' '#f4a300' sun
draw public/images/blog/weekly-routine.webp '#1b2a4a' '#3a6ea5' calendar
draw public/images/blog/commissions-and-margins.webp '#075e5a' '#2fb39a' chart
draw public/images/blog/client-follow-up.webp '#7a1f4a' '#e0607e' checklist

# -------------------------------------------------------------- events ---
draw public/images/events/booking-tools-webinar.webp '#0f4c81' '#4aa3df' screen
draw public/images/events/consultative-selling-day.webp '#4a1f7a' '#e0607e' chat
draw public/images/events/shoulder-season-webinar.webp '#a0153e' '#f4a300' screen
draw public/images/events/group-travel-workshop.webp '#0b7a4b' '#1fa2a6' globe
draw public/images/events/leaders-meeting.webp '#1b2a4a' '#c79a3a' group

# ----------------------------------------------------------- portfolio ---
draw public/images/portfolio/family-caribbean.webp '#0b6e99' '#35c2c1' sun
draw public/images/portfolio/book-club-lisbon.webp '#8a3b12' '#e8a15b' book
draw public/images/portfolio/honeymoon-islands.webp '#a0153e' '#f06b5b' heart
draw public/images/portfolio/first-team.webp '#243a66' '#5b8bd0' group
draw public/images/portfolio/certified-team.webp '#075e5a' '#c79a3a' medal
draw public/images/portfolio/corporate-retreat.webp '#14213d' '#4f7d5c' mountain
draw public/images/portfolio/graduation-trip.webp '#4a1f7a' '#0f4c81' plane
