#!/usr/bin/env bash
# Generates the academy's small sample media from scratch:
#   media/video/clip-{1..6}.webm        lesson videos (VP9 + Opus, seekable)
#   media/captions/clip-N.{es,en}.vtt   WebVTT captions
#   media/durations.json                durations read back with ffprobe
#   public/images/**                    thumbnails, book covers, hero slides,
#                                       avatars, about image, OG image
#   public/logo.svg, public/logo-light.svg, public/favicon.svg
#
# Requirements: ffmpeg/ffprobe (with libvpx-vp9, libopus, drawtext),
# ImageMagick 6 (`convert`, with WebP support) and the DejaVu fonts.
# Idempotent: every output is deleted and rebuilt on each run.
#
# Usage: scripts/make-media.sh            (run from anywhere)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VIDEO_DIR="media/video"
CAPTION_DIR="media/captions"
IMG_DIR="public/images"

# ---------------------------------------------------------------- tools ---
for tool in ffmpeg ffprobe convert identify; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: '$tool' not found" >&2; exit 1; }
done

find_font() { # $1 = file name, $2 = fontconfig pattern
  local f
  for f in "/usr/share/fonts/truetype/dejavu/$1" "/usr/share/fonts/dejavu/$1"; do
    [[ -f "$f" ]] && { echo "$f"; return; }
  done
  if command -v fc-match >/dev/null 2>&1; then
    f="$(fc-match -f '%{file}' "$2" 2>/dev/null || true)"
    [[ -n "$f" && -f "$f" ]] && { echo "$f"; return; }
  fi
  echo "error: font $1 not found (install fonts-dejavu-core)" >&2
  exit 1
}
FONT_SANS="$(find_font DejaVuSans.ttf 'DejaVu Sans')"
FONT_BOLD="$(find_font DejaVuSans-Bold.ttf 'DejaVu Sans:bold')"
FONT_MONO="$(find_font DejaVuSansMono-Bold.ttf 'DejaVu Sans Mono:bold')"
FONT_SERIF="$(find_font DejaVuSerif-Bold.ttf 'DejaVu Serif:bold')"
FONT_LIGHT="$(find_font DejaVuSans-ExtraLight.ttf 'DejaVu Sans:extralight')"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

export LC_ALL=C.UTF-8 # decimal points in printf, UTF-8 text

# text_width FONT POINTSIZE KERNING TEXT -> rendered width in pixels
text_width() {
  convert -font "$1" -pointsize "$2" -kerning "$3" label:"$4" -format %w info:
}

WEBP=(-strip -define webp:method=6 -define webp:auto-filter=true)

# --------------------------------------------------------------- clean ---
rm -f "$VIDEO_DIR"/clip-*.webm "$CAPTION_DIR"/clip-*.vtt media/durations.json
rm -f "$IMG_DIR"/courses/*.webp "$IMG_DIR"/books/*.webp "$IMG_DIR"/hero/*.webp \
      "$IMG_DIR"/people/*.webp "$IMG_DIR"/about.webp "$IMG_DIR"/og-default.png \
      public/logo.svg public/logo-light.svg public/favicon.svg
mkdir -p "$VIDEO_DIR" "$CAPTION_DIR" "$IMG_DIR"/{courses,books,hero,people}

# ============================================================== VIDEOS ====
# n | duration (s) | gradient colour A | colour B | tone (Hz) | topic es | topic en
CLIPS=(
  "1|8|0x0f4c81|0x1fa2a6|262|Bienvenida a la academia|Welcome to the academy"
  "2|7|0xd9480f|0xf3a953|330|Fundamentos de la industria de viajes|Travel industry fundamentals"
  "3|9|0x0b7a4b|0x7bc96f|392|Herramientas de reservas|Booking tools"
  "4|6.5|0x4a1f7a|0xb065d0|440|Marketing digital básico|Digital marketing basics"
  "5|8.5|0xa0153e|0xf06b5b|494|Venta de paquetes turísticos|Selling holiday packages"
  "6|7.5|0x14213d|0xc79a3a|523|Excelencia en el servicio al cliente|Customer service excellence"
)

make_clip() {
  local n="$1" dur="$2" ca="$3" cb="$4" freq="$5" topic_es="$6" topic_en="$7"
  local out="$VIDEO_DIR/clip-$n.webm"
  # Text goes through files so accents, slashes and colons need no escaping.
  printf 'Lección %s / Lesson %s' "$n" "$n" >"$TMP/title-$n.txt"
  printf '%s' "$topic_es" >"$TMP/es-$n.txt"
  printf '%s' "$topic_en" >"$TMP/en-$n.txt"
  local fade_out; fade_out="$(awk -v d="$dur" 'BEGIN{printf "%.2f", d-0.8}')"

  local fc
  fc="[0:v]"
  fc+="drawbox=x=0:y=100:w=iw:h=150:color=black@0.35:t=fill,"
  fc+="drawtext=fontfile=$FONT_BOLD:textfile=$TMP/title-$n.txt:fontsize=46:fontcolor=white:"
  fc+="x=(w-tw)/2:y=122:shadowcolor=black@0.45:shadowx=2:shadowy=2,"
  fc+="drawtext=fontfile=$FONT_SANS:textfile=$TMP/es-$n.txt:fontsize=22:fontcolor=white:x=(w-tw)/2:y=186,"
  fc+="drawtext=fontfile=$FONT_SANS:textfile=$TMP/en-$n.txt:fontsize=16:fontcolor=white@0.8:x=(w-tw)/2:y=218,"
  fc+="drawtext=fontfile=$FONT_BOLD:text=ACADEMIA:fontsize=14:fontcolor=white@0.85:x=20:y=20,"
  fc+="drawtext=fontfile=$FONT_MONO:text='%{pts\\:hms}':fontsize=22:fontcolor=white:"
  fc+="box=1:boxcolor=black@0.55:boxborderw=10:x=w-tw-24:y=h-th-30[bg];"
  # progress bar sliding in along the bottom edge: another visual cue for seeking
  fc+="[bg][2:v]overlay=x='-W+W*t/$dur':y=H-6:eval=frame:shortest=1,format=yuv420p[v];"
  fc+="[1:a]volume=0.08,afade=t=in:d=0.5,afade=t=out:st=$fade_out:d=0.8[a]"

  ffmpeg -hide_banner -loglevel error -nostdin -y \
    -f lavfi -i "gradients=s=640x360:r=24:d=$dur:c0=$ca:c1=$cb:x0=0:y0=0:x1=640:y1=360:seed=$n:speed=0.015" \
    -f lavfi -i "sine=frequency=$freq:sample_rate=48000:d=$dur" \
    -f lavfi -i "color=c=white@0.9:s=640x6:r=24:d=$dur" \
    -filter_complex "$fc" -map "[v]" -map "[a]" \
    -c:v libvpx-vp9 -b:v 150k -crf 36 -g 48 -keyint_min 48 -row-mt 1 \
    -deadline good -cpu-used 4 -pix_fmt yuv420p \
    -c:a libopus -b:a 24k -ac 1 \
    -t "$dur" -cues_to_front 1 -metadata title="Lección $n / Lesson $n" \
    -fflags +bitexact -flags:v +bitexact -flags:a +bitexact \
    "$out"
}

for row in "${CLIPS[@]}"; do
  IFS='|' read -r n dur ca cb freq tes ten <<<"$row"
  make_clip "$n" "$dur" "$ca" "$cb" "$freq" "$tes" "$ten"
done

# ------------------------------------------------------------ durations ---
{
  echo "{"
  for i in 1 2 3 4 5 6; do
    d="$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$VIDEO_DIR/clip-$i.webm")"
    sep=","; [[ $i -eq 6 ]] && sep=""
    printf '  "clip-%s": %.2f%s\n' "$i" "$d" "$sep"
  done
  echo "}"
} >media/durations.json

# ============================================================ CAPTIONS ====
# write_vtt FILE CUE... ; each CUE is "start|end|text" (seconds)
write_vtt() {
  local file="$1"; shift
  {
    printf 'WEBVTT\n'
    local i=0 cue s e text
    for cue in "$@"; do
      i=$((i + 1))
      IFS='|' read -r s e text <<<"$cue"
      printf '\n%d\n%s --> %s\n%s\n' "$i" \
        "$(awk -v t="$s" 'BEGIN{printf "%02d:%02d:%06.3f", int(t/3600), int(t/60)%60, t-int(t/60)*60}')" \
        "$(awk -v t="$e" 'BEGIN{printf "%02d:%02d:%06.3f", int(t/3600), int(t/60)%60, t-int(t/60)*60}')" \
        "$text"
    done
  } >"$file"
}

C=$CAPTION_DIR
write_vtt "$C/clip-1.es.vtt" \
  "0|2.6|Bienvenido a la lección 1: en este video verás cómo funciona la academia." \
  "2.6|5.4|Conocerás los cursos, los niveles y las certificaciones disponibles." \
  "5.4|8|¡Empecemos tu camino en el mundo de los viajes y los negocios!"
write_vtt "$C/clip-1.en.vtt" \
  "0|2.6|Welcome to lesson 1: in this video you'll see how the academy works." \
  "2.6|5.4|You'll discover the available courses, levels and certifications." \
  "5.4|8|Let's start your journey into the world of travel and business!"

write_vtt "$C/clip-2.es.vtt" \
  "0|2.3|Lección 2: los fundamentos de la industria de viajes." \
  "2.3|4.7|Aprenderás qué papel cumplen aerolíneas, hoteles, mayoristas y agencias." \
  "4.7|7|Entender la cadena de distribución te ayudará a vender con confianza."
write_vtt "$C/clip-2.en.vtt" \
  "0|2.3|Lesson 2: the fundamentals of the travel industry." \
  "2.3|4.7|You'll learn the role of airlines, hotels, wholesalers and agencies." \
  "4.7|7|Understanding the distribution chain will help you sell with confidence."

write_vtt "$C/clip-3.es.vtt" \
  "0|2|Lección 3: herramientas de reservas." \
  "2|4.4|Primero, busca disponibilidad y compara tarifas para tu cliente." \
  "4.4|6.8|Después, revisa los datos del viajero antes de emitir la reserva." \
  "6.8|9|Por último, envía el itinerario y guarda el código de confirmación."
write_vtt "$C/clip-3.en.vtt" \
  "0|2|Lesson 3: booking tools." \
  "2|4.4|First, search availability and compare fares for your client." \
  "4.4|6.8|Next, double-check the traveler's details before issuing the booking." \
  "6.8|9|Finally, send the itinerary and keep the confirmation code."

write_vtt "$C/clip-4.es.vtt" \
  "0|2|Lección 4: marketing digital básico." \
  "2|4.3|Define a quién le hablas: familias, parejas o viajeros de negocios." \
  "4.3|6.5|Publica contenido útil con regularidad y mide qué funciona."
write_vtt "$C/clip-4.en.vtt" \
  "0|2|Lesson 4: digital marketing basics." \
  "2|4.3|Define who you are talking to: families, couples or business travelers." \
  "4.3|6.5|Post useful content regularly and measure what works."

write_vtt "$C/clip-5.es.vtt" \
  "0|2|Lección 5: cómo vender paquetes turísticos." \
  "2|4.2|Escucha primero: pregunta por fechas, presupuesto y estilo de viaje." \
  "4.2|6.4|Presenta dos o tres opciones claras, no una lista interminable." \
  "6.4|8.5|Cierra la venta resolviendo dudas y acordando el siguiente paso."
write_vtt "$C/clip-5.en.vtt" \
  "0|2|Lesson 5: how to sell holiday packages." \
  "2|4.2|Listen first: ask about dates, budget and travel style." \
  "4.2|6.4|Present two or three clear options, not an endless list." \
  "6.4|8.5|Close the sale by answering questions and agreeing on the next step."

write_vtt "$C/clip-6.es.vtt" \
  "0|2.4|Lección 6: excelencia en el servicio al cliente." \
  "2.4|5|Responde rápido y con empatía, y haz seguimiento después del viaje." \
  "5|7.5|Un cliente satisfecho es tu mejor recomendación. ¡Nos vemos pronto!"
write_vtt "$C/clip-6.en.vtt" \
  "0|2.4|Lesson 6: excellence in customer service." \
  "2.4|5|Reply quickly and with empathy, and follow up after the trip." \
  "5|7.5|A happy customer is your best referral. See you soon!"

# ======================================================= COURSE THUMBS ====
# id | colour A | colour B | category label | title (es)
COURSES=(
  "1|#0f4c81|#2bb3c0|INTRODUCTORIO|Bienvenida a la academia"
  "2|#e96443|#f6a35b|INTRODUCTORIO|Fundamentos de la industria de viajes"
  "3|#0f8a6c|#56c786|INTRODUCTORIO|Primeros pasos como IBO"
  "4|#4b2a8a|#9d5fd6|BÁSICO|Herramientas de reservas"
  "5|#c2185b|#f06b6b|BÁSICO|Marketing digital básico"
  "6|#134e5e|#5fa37a|BÁSICO|Finanzas personales esenciales"
  "7|#d4552f|#8e3f8f|INTERMEDIO|Venta de paquetes turísticos"
  "8|#3f5bd4|#b06ab3|INTERMEDIO|Redes sociales para vendedores de viajes"
  "9|#141e30|#35577d|ENTRENAMIENTO|Liderazgo para distribuidores"
  "10|#8a6420|#d1a94a|INTERMEDIO|Certificación Agente de Viajes Élite"
  "11|#00897b|#8bbf3f|ENTRENAMIENTO|Excelencia en el servicio al cliente"
  "12|#4f5b76|#8a96ad|INTRODUCTORIO|Curso de prueba interno"
  "16|#3a1c71|#d76d77|ENTRENAMIENTO|Mastermind: escala tu red"
  "20|#1a2980|#1fb5c9|ENTRENAMIENTO|Masterclass de venta de cruceros"
  "31|#9b1b30|#3a1248|BÁSICO|Real Vision básico"
  "32|#0b486b|#e8692a|INTERMEDIO|Real Vision intermedio"
)

make_thumb() {
  local id="$1" ca="$2" cb="$3" cat="$4" title="$5"
  local out="$IMG_DIR/courses/$id.webp"
  # deterministic decoration positions derived from the id
  local cx=$((420 + (id * 53) % 180)) cy=$((30 + (id * 37) % 120))
  local cx2=$((460 + (id * 29) % 120)) cy2=$((250 + (id * 17) % 80))
  local angle=$((110 + (id * 23) % 70))
  local pill_w; pill_w="$(text_width "$FONT_BOLD" 13 1.5 "$cat")"
  # balance the title's lines instead of leaving a lone last word
  local tw cap_w=540 lines
  tw="$(text_width "$FONT_BOLD" 38 0 "$title")"
  if ((tw > cap_w)); then
    lines=$(((tw + cap_w - 1) / cap_w))
    cap_w=$((tw / lines + 70))
    if ((cap_w > 540)); then cap_w=540; fi
  fi
  convert -size 640x360 -define gradient:angle="$angle" "gradient:$ca-$cb" \
    -fill 'rgba(255,255,255,0.10)' -draw "circle $cx,$cy $((cx + 150)),$cy" \
    -fill 'rgba(255,255,255,0.07)' -draw "circle $cx2,$cy2 $((cx2 + 95)),$cy2" \
    -fill none -stroke 'rgba(255,255,255,0.18)' -strokewidth 2 \
    -draw "circle $cx,$cy $((cx + 205)),$cy" -stroke none \
    \( -size 640x360 'gradient:rgba(0,0,0,0.05)-rgba(0,0,0,0.62)' \) -composite \
    -fill 'rgba(255,255,255,0.93)' -draw "roundrectangle 28,26 $((28 + pill_w + 24)),54 14,14" \
    -font "$FONT_BOLD" -pointsize 13 -kerning 1.5 -fill '#1b2a4a' \
    -gravity northwest -annotate "+$((28 + 12))+32" "$cat" \
    -kerning 3 -pointsize 13 -fill 'rgba(255,255,255,0.85)' \
    -gravity northeast -annotate +30+33 "ACADEMIA" \
    \( -background none -fill white -font "$FONT_BOLD" -pointsize 38 -kerning 0 \
       -interline-spacing -4 -gravity northwest -size "${cap_w}x" "caption:$title" \
       \( +clone -background black -shadow 55x3+0+2 \) +swap \
       -background none -layers merge +repage \) \
    -gravity southwest -geometry +26+26 -composite \
    -quality 80 "${WEBP[@]}" "$out"
}

for row in "${COURSES[@]}"; do
  IFS='|' read -r id ca cb cat title <<<"$row"
  make_thumb "$id" "$ca" "$cb" "$cat" "$title"
done

# ========================================================= BOOK COVERS ====
# n | colour A | colour B | accent | title | author
BOOKS=(
  "1|#0f3b5f|#2a8fa8|#ffc857|El arte de viajar vendiendo|Lucía Herrera"
  "2|#5a1e3c|#c44d58|#ffd6a5|Emprender sin fronteras|Diego Morales"
  "3|#12372a|#3f7d58|#f2e8c9|Finanzas para independientes|Valeria Ortiz"
  "4|#2b1d52|#e0704a|#ffe29a|Marketing de destinos|Andrés Castillo"
)

make_book() {
  local n="$1" ca="$2" cb="$3" accent="$4" title="$5" author="$6"
  local out="$IMG_DIR/books/$n.webp"
  local -a motif
  # largest size (<= 36pt) at which the longest word fits the 290px column
  local ps=36 word longest=""
  for word in $title; do
    if ((${#word} > ${#longest})); then longest="$word"; fi
  done
  while ((ps > 24)) && (($(text_width "$FONT_SERIF" "$ps" 0 "$longest") > 280)); do ps=$((ps - 2)); done
  case "$n" in
    1) # sun over a horizon
      motif=(-fill "$accent" -draw 'circle 200,160 200,112'
             -fill none -stroke "$accent" -strokewidth 3
             -draw 'line 115,226 285,226' -draw 'line 145,238 255,238' -draw 'line 175,250 225,250') ;;
    2) # globe
      motif=(-fill none -stroke "$accent" -strokewidth 3 -draw 'circle 200,165 200,100'
             -draw 'ellipse 200,165 28,65 0,360' -draw 'ellipse 200,165 65,24 0,360'
             -draw 'line 135,165 265,165') ;;
    3) # rising bars
      motif=(-fill "$accent" -draw 'rectangle 140,185 162,215' -draw 'rectangle 172,165 194,215'
             -draw 'rectangle 204,140 226,215' -draw 'rectangle 236,112 258,215'
             -fill none -stroke "$accent" -strokewidth 3 -draw 'line 125,222 275,222') ;;
    4) # map pin
      motif=(-fill "$accent" -draw 'circle 200,150 200,105' -draw 'polygon 163,175 237,175 200,228'
             -fill "$ca" -draw 'circle 200,150 200,132') ;;
  esac
  convert -size 400x600 -define gradient:angle=160 "gradient:$ca-$cb" \
    -fill 'rgba(0,0,0,0.18)' -draw 'rectangle 0,0 16,600' \
    -fill none -stroke 'rgba(255,255,255,0.45)' -strokewidth 1.5 \
    -draw 'rectangle 32,24 376,576' -stroke none \
    "${motif[@]}" -stroke none \
    -font "$FONT_BOLD" -pointsize 12 -kerning 4 -fill 'rgba(255,255,255,0.8)' \
    -gravity north -annotate +8+48 'ACADEMIA · LIBROS' \
    \( -background none -fill white -font "$FONT_SERIF" -pointsize "$ps" -kerning 0 \
       -interline-spacing -2 -gravity center -size 290x "caption:$title" \) \
    -gravity center -geometry +8+62 -composite \
    -fill "$accent" -draw 'rectangle 186,486 230,489' \
    -font "$FONT_SANS" -pointsize 16 -kerning 2 -fill white \
    -gravity south -annotate +8+66 "$author" \
    -quality 82 "${WEBP[@]}" "$out"
}

for row in "${BOOKS[@]}"; do
  IFS='|' read -r n ca cb accent title author <<<"$row"
  make_book "$n" "$ca" "$cb" "$accent" "$title" "$author"
done

# ========================================================= HERO SLIDES ====
# wave_points W BASE AMP PHASE FREQ -> "x,y x,y ..." closed to the bottom edge
wave_points() {
  awk -v w="$1" -v h="$2" -v base="$3" -v amp="$4" -v ph="$5" -v f="$6" 'BEGIN{
    printf "0,%d ", h
    for (x = 0; x <= w; x += 20) {
      y = base + amp*sin(x/w*6.2832*f + ph) + amp*0.4*sin(x/w*6.2832*f*2.7 + ph*1.7)
      printf "%d,%d ", x, y
    }
    printf "%d,%d", w, h
  }'
}

# 1: sunset over layered hills
convert -size 1600x700 -define gradient:angle=180 'gradient:#2d1b69-#f28b50' \
  \( -size 1600x700 xc:none -fill 'rgba(255,214,140,0.9)' -draw 'circle 1120,430 1120,300' \
     -blur 0x30 \) -composite \
  -fill '#ffd58a' -draw 'circle 1120,430 1120,335' \
  -fill 'rgba(120,40,90,0.55)' -draw "polygon $(wave_points 1600 700 470 40 0.5 1.3)" \
  -fill 'rgba(70,25,70,0.75)' -draw "polygon $(wave_points 1600 700 540 35 2.1 1.8)" \
  -fill 'rgba(35,15,45,0.92)' -draw "polygon $(wave_points 1600 700 615 25 4.0 2.4)" \
  -quality 80 "${WEBP[@]}" "$IMG_DIR/hero/1.webp"

# 2: ocean horizon with rolling waves
convert -size 1600x700 -define gradient:angle=180 'gradient:#7fd3f0-#2f7fc1' \
  \( -size 1600x700 xc:none -fill 'rgba(255,255,255,0.55)' -draw 'circle 380,170 380,90' \
     -blur 0x40 \) -composite \
  -fill 'rgba(255,255,255,0.35)' -draw 'ellipse 1150,140 220,28 0,360' -draw 'ellipse 1290,120 140,22 0,360' \
  -fill 'rgba(20,110,170,0.65)' -draw "polygon $(wave_points 1600 700 400 14 0.3 3)" \
  -fill 'rgba(12,80,150,0.75)' -draw "polygon $(wave_points 1600 700 470 20 1.4 2.2)" \
  -fill 'rgba(8,55,115,0.85)' -draw "polygon $(wave_points 1600 700 550 26 2.6 1.6)" \
  -fill 'rgba(5,35,80,0.95)' -draw "polygon $(wave_points 1600 700 630 22 3.7 1.2)" \
  -quality 80 "${WEBP[@]}" "$IMG_DIR/hero/2.webp"

# 3: city skyline at dusk
# skyline MODE SEED BASE HMIN HMAX WMIN WMAX: MODE "b" prints the buildings,
# MODE "w" prints lit windows inside those same buildings (same random seed).
skyline() {
  awk -v mode="$1" -v seed="$2" -v base="$3" -v hmin="$4" -v hmax="$5" -v wmin="$6" -v wmax="$7" 'BEGIN{
    srand(seed); x = -10
    while (x < 1600) {
      w = wmin + int(rand()*(wmax-wmin)); h = hmin + int(rand()*(hmax-hmin)); spire = rand() < 0.25
      if (mode == "b") {
        printf "rectangle %d,%d %d,%d ", x, base-h, x+w, 700
        if (spire) printf "rectangle %d,%d %d,%d ", x+w/2-2, base-h-40, x+w/2+2, base-h
      }
      for (wy = base-h+14; wy < 672; wy += 18)
        for (wx = x+8; wx < x+w-12; wx += 14) {
          lit = rand() < 0.16
          if (mode == "w" && lit) printf "rectangle %d,%d %d,%d ", wx, wy, wx+5, wy+8
        }
      x += w + int(rand()*6)
    }
  }'
}
convert -size 1600x700 -define gradient:angle=180 'gradient:#0b1a3a-#c0587e' \
  \( -size 1600x700 xc:none -fill 'rgba(255,170,120,0.6)' -draw 'ellipse 800,700 900,260 0,360' \
     -blur 0x60 \) -composite \
  -fill 'rgba(255,255,255,0.7)' -draw 'circle 1320,110 1320,80' \
  -fill 'rgba(60,40,100,0.55)' -draw "$(skyline b 7 560 80 260 50 120)" \
  -fill 'rgba(25,20,60,0.88)' -draw "$(skyline b 11 610 60 300 40 110)" \
  -fill 'rgba(255,210,130,0.6)' -draw "$(skyline w 11 610 60 300 40 110)" \
  -fill 'rgba(10,10,30,0.95)' -draw 'rectangle 0,680 1600,700' \
  -quality 78 "${WEBP[@]}" "$IMG_DIR/hero/3.webp"

# ============================================================= AVATARS ====
# n | colour A | colour B | initials
PEOPLE=("1|#e96443|#f6a35b|MG" "2|#0f4c81|#2bb3c0|CR" "3|#0f8a6c|#56c786|AL" "4|#6a3093|#b06ab3|JP")
for row in "${PEOPLE[@]}"; do
  IFS='|' read -r n ca cb ini <<<"$row"
  convert -size 160x160 -define gradient:angle=135 "gradient:$ca-$cb" \
    -fill 'rgba(255,255,255,0.12)' -draw 'circle 118,40 118,8' \
    \( -size 160x160 xc:black -fill white -draw 'circle 80,80 80,2' \) \
    -alpha off -compose CopyOpacity -composite -compose Over \
    -font "$FONT_BOLD" -pointsize 58 -fill white -gravity center -annotate +0+2 "$ini" \
    -quality 85 "${WEBP[@]}" "$IMG_DIR/people/$n.webp"
done

# =============================================================== ABOUT ====
# overlapping circles (a team) plus a dashed flight path between destinations
convert -size 1200x700 -define gradient:angle=120 'gradient:#0f4c81-#2bb3c0' \
  \( -size 1200x700 xc:none -fill 'rgba(255,255,255,0.35)' -draw 'circle 980,160 980,40' \
     -blur 0x50 \) -composite \
  -fill 'rgba(255,255,255,0.16)' -draw 'circle 470,420 470,250' \
  -fill 'rgba(255,150,110,0.55)' -draw 'circle 640,400 640,240' \
  -fill 'rgba(255,205,90,0.50)' -draw 'circle 560,540 560,400' \
  -fill 'rgba(255,255,255,0.10)' -draw 'circle 740,540 740,430' \
  -fill none -stroke 'rgba(255,255,255,0.8)' -strokewidth 4 \
  -draw 'stroke-dasharray 14 12 path "M 120,600 C 300,200 700,80 1080,260"' \
  -stroke 'rgba(255,255,255,0.95)' -strokewidth 4 -fill '#ffc857' \
  -draw 'circle 120,600 120,588' -draw 'circle 1080,260 1080,248' -draw 'circle 525,212 525,202' \
  -stroke none -fill 'rgba(255,255,255,0.25)' \
  -draw 'circle 200,120 200,117' -draw 'circle 320,80 320,78' -draw 'circle 900,620 900,617' -draw 'circle 1100,560 1100,558' \
  -quality 80 "${WEBP[@]}" "$IMG_DIR/about.webp"

# =============================================================== LOGOS ====
# Mark (40x40 units): a globe (outline, meridian, equator) with an orbiting
# flight path ending in a dot. mark_svg STROKE-ATTRS ACCENT
mark_svg() {
  cat <<EOF
  <g fill="none" $1 stroke-width="2.6" stroke-linecap="round">
    <circle cx="20" cy="20" r="14"/>
    <ellipse cx="20" cy="20" rx="6" ry="14"/>
    <path d="M6 20h28"/>
  </g>
  <path d="M4.5 27.5C9 33 33 25 37 13" fill="none" stroke="$2" stroke-width="2.6" stroke-linecap="round"/>
  <circle cx="37" cy="13" r="2.7" fill="$2" stroke="none"/>
EOF
}
logo_svg() { # $1 text/mark colour, $2 accent colour
  echo '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 184 40" width="184" height="40" role="img" aria-label="Academia">'
  echo '  <title>Academia</title>'
  mark_svg "stroke=\"$1\"" "$2"
  echo "  <text x=\"48\" y=\"28\" fill=\"$1\" font-family=\"system-ui, sans-serif\" font-size=\"22\" font-weight=\"700\" letter-spacing=\"0.3\">Academia</text>"
  echo '</svg>'
}
logo_svg '#1b2a4a' '#e8692a' >public/logo.svg
logo_svg '#ffffff' '#ffb35c' >public/logo-light.svg
{
  echo '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">'
  echo '  <style>.g{stroke:#1b2a4a}@media (prefers-color-scheme:dark){.g{stroke:#fff}}</style>'
  mark_svg 'class="g"' '#e8692a'
  echo '</svg>'
} >public/favicon.svg

# ============================================================ OG IMAGE ====
{
  echo '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="240" height="240">'
  mark_svg 'stroke="#ffffff"' '#ffc857'
  echo '</svg>'
} >"$TMP/mark-light.svg"
# Rasterise with librsvg through ffmpeg (accurate); ImageMagick's internal
# SVG renderer is only a fallback (it draws open paths as closed shapes).
ffmpeg -hide_banner -loglevel error -nostdin -y -i "$TMP/mark-light.svg" -frames:v 1 "$TMP/mark-light.png" 2>/dev/null ||
  convert -background none "$TMP/mark-light.svg" -resize 240x240 "$TMP/mark-light.png"
convert -size 1200x630 -define gradient:angle=135 'gradient:#1b2a4a-#1f7a8c' \
  \( -size 1200x630 xc:none -fill 'rgba(255,255,255,0.22)' -draw 'circle 1020,120 1020,0' \
     -blur 0x60 \) -composite \
  "$TMP/mark-light.png" -gravity west -geometry +100+0 -composite \
  -font "$FONT_BOLD" -pointsize 120 -fill white -annotate +400-42 'Academia' \
  -fill '#ffc857' -draw 'rectangle 408,342 508,348' \
  -font "$FONT_SANS" -pointsize 50 -fill 'rgba(255,255,255,0.9)' -annotate +404+88 'Viajes y negocios' \
  -strip -depth 8 -define png:compression-level=9 -define png:compression-filter=5 \
  "PNG24:$IMG_DIR/og-default.png"

# ============================================================== VERIFY ====
fail=0
check() { # file max_bytes [min_bytes] [WxH]
  local f="$1" max="$2" min="${3:-0}" dim="${4:-}" size
  size=$(stat -c %s "$f")
  if ((size > max || size < min)); then
    echo "CHECK FAILED: $f is $size bytes (allowed $min..$max)" >&2; fail=1
  fi
  if [[ -n "$dim" ]]; then
    local got; got="$(identify -format '%wx%h' "$f" 2>/dev/null | head -c 20)"
    [[ "$got" == "$dim" ]] || { echo "CHECK FAILED: $f is $got, expected $dim" >&2; fail=1; }
  fi
}
for i in 1 2 3 4 5 6; do
  f="$VIDEO_DIR/clip-$i.webm"
  check "$f" 358400 61440
  d="$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$f")"
  awk -v d="$d" 'BEGIN{exit !(d >= 6 && d <= 10.05)}' || { echo "CHECK FAILED: $f duration $d" >&2; fail=1; }
  head -c 6 "$CAPTION_DIR/clip-$i.es.vtt" | grep -q '^WEBVTT' || fail=1
  head -c 6 "$CAPTION_DIR/clip-$i.en.vtt" | grep -q '^WEBVTT' || fail=1
done
for row in "${COURSES[@]}"; do check "$IMG_DIR/courses/${row%%|*}.webp" 40960 0 640x360; done
for n in 1 2 3 4; do check "$IMG_DIR/books/$n.webp" 40960 0 400x600; done
for n in 1 2 3; do check "$IMG_DIR/hero/$n.webp" 122880 0 1600x700; done
for n in 1 2 3 4; do check "$IMG_DIR/people/$n.webp" 12288 0 160x160; done
check "$IMG_DIR/about.webp" 102400 0 1200x700
check "$IMG_DIR/og-default.png" 153600 0 1200x630
check public/logo.svg 3072
check public/logo-light.svg 3072
check public/favicon.svg 3072
total=$(du -cb media "$IMG_DIR" | tail -1 | cut -f1)
((total < 3145728)) || { echo "CHECK FAILED: total $total bytes >= 3 MB" >&2; fail=1; }

# ============================================================== REPORT ====
echo "Generated files (bytes):"
find media "$IMG_DIR" public/logo.svg public/logo-light.svg public/favicon.svg -type f \
  \( -name '*.webm' -o -name '*.vtt' -o -name 'durations.json' -o -name '*.webp' \
     -o -name 'og-default.png' -o -name '*.svg' \) -print0 |
  sort -zV | xargs -0 du -b | awk '{printf "  %8d  %s\n", $1, $2}'
echo "Durations: $(tr -d '\n ' <media/durations.json)"
echo "Total media/ + $IMG_DIR: $total bytes"
if ((fail)); then echo "Some checks FAILED" >&2; exit 1; fi
echo "All checks passed."
