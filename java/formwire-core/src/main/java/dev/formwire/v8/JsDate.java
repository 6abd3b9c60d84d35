package dev.formwire.v8;

/** A JS Date: its time value in ms since the epoch (NaN for an invalid date), after ECMA TimeClip. */
public final class JsDate {
    public final double time;

    public JsDate(double time) {
        this.time = Wire.timeClip(time);
    }

    @Override
    public String toString() {
        return "JsDate(" + time + ")";
    }
}
