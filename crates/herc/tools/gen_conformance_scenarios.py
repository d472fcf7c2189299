# Writes the conformance scenarios; run inside crates/herc/tests/conformance/scenarios.
# (example.json is copied from the spec and odd_shapes.json is written by hand; neither comes from here.)
import json, os
B="../assets/biped.json"; E="../assets/edge.json"; X="../assets/example.json"
IDLE,WALK,RUN,TURN,STOP,TWIST,PITCH,IDLER=range(8)
def ms(n): return {"op":"step_ms","ms":n}
def adv(d,t=0): return {"op":"advance","thread":t,"delta":d}
def rate(r,t=0): return {"op":"set_rate","thread":t,"rate":r}
def req(s,f=None,stop=None,t=0):
    o={"op":"request","thread":t,"seq":s}
    if f is not None: o["frame"]=f
    if stop is not None: o["stop_on_arrival"]=stop
    return o
def setseq(s,f=None,a=None,t=0):
    o={"op":"set_sequence","thread":t,"seq":s}
    if f is not None: o["frame"]=f
    if a is not None: o["acc"]=a
    return o
def seek(s,p,t=0): return {"op":"seek","thread":t,"seq":s,"pos":p}
def wr(e,tt,t=0): return {"op":"write_root","thread":t,"euler":e,"t":tt}
S={}
def sc(name, note, asset, threads, steps, obj=None):
    setup={"threads":threads}
    if obj: setup["object"]=obj
    S[name]={"engine":"herc","name":name,"note":note,"asset":asset,"setup":setup,"steps":steps}

sc("walk_every_frame_offsets","Every walk frame at offsets 0, 1, mid and dur-1 via raw advances at rate 256 (H1, H2, H10).",B,
   [{"seq":WALK,"rate":256}],
   [adv(1),adv(9),adv(9),adv(1)]+[x for d in [24,20,20,24,20] for x in [adv(1),adv(d//2-1),adv(d//2-1),adv(1)]]+[adv(1),adv(5),adv(30),adv(63)])
sc("walk_25hz_root_motion","Walk at 1x for 24 steps of 40 ms: 31 ticks per step, root motion pulses per frame and moves the object (H14-H16, H19, H20, H29).",B,
   [{"seq":WALK,"rate":256}],[ms(40)]*24)
sc("seek_fractional","Seeks at Q14 positions across walk, twist and pitch: whole-tick offsets (H4b).",B,
   [{"seq":WALK,"rate":256},{"seq":TWIST},{"seq":PITCH}],
   [seek(WALK,p) for p in [0,1,4096,8191,8192,9000,12000,16383,16384]]+
   [seek(TWIST,p,1) for p in [0,2048,4096,6000,8192,16384]]+[seek(PITCH,p,2) for p in [1000,5000,15000]]+[ms(40),ms(40)])
sc("reverse_rate_walk","Walk played backwards at -256 and -77: uncommit on every frame left, previous() wraps (H2, H9, H14).",B,
   [{"seq":WALK,"rate":-256}],[ms(40)]*8+[rate(-77)]+[ms(40)]*6+[adv(-400),adv(-1)])
sc("forward_then_reverse_returns","Forward N ticks then backward N ticks returns to the same cursor and root (H1, H9, H14).",B,
   [{"seq":RUN,"rate":256}],[ms(40)]*3+[rate(-256)]+[ms(40)]*3+[adv(37)]+[adv(-37)])
sc("rate_pause_and_speeds","Rate 0 pauses, small rates floor to 0 ticks, large rates cross several frames in one step (H5, Advance step 2).",B,
   [{"seq":WALK,"rate":0}],[ms(40),rate(1),ms(40),rate(8),ms(40),rate(9),ms(40),rate(37),ms(40),ms(40),rate(512),ms(40),rate(1000),ms(40),rate(-1),ms(40),rate(0),ms(40)])
sc("request_stop_on_arrival","idle -> walk with stop on arrival: armed transition, transition frame, frozen at arrival with acc 0 (H6, H8).",B,
   [{"seq":IDLE,"rate":256}],[ms(40),req(WALK,stop=True)]+[ms(40)]*8+[req(IDLE,stop=False),ms(40),ms(40)])
sc("request_without_stop","idle -> walk without stop: AtTarget set on arrival and playback continues (H6, H8).",B,
   [{"seq":IDLE,"rate":256}],[req(WALK)]+[ms(40)]*10)
sc("request_specific_frame","Requests for a given frame: forward accepts dest_frame < f, an exact frame needs acc 0 (H6).",B,
   [{"seq":WALK,"rate":256}],[req(RUN,2),ms(40),ms(40),ms(40),req(WALK,3,True),ms(40)]+[ms(40)]*4+[req(RUN,0),req(RUN,1),ms(40),ms(40)])
sc("reverse_transition_traversal","Walk backwards with a request for idle_reverse: backward search, reversed transition frame, uncommit of its key (H9).",B,
   [{"seq":WALK,"rate":-256}],[ms(40),req(IDLER)]+[ms(40)]*8+[adv(-5),adv(-100)])
sc("reverse_into_transition_then_forward","Enter a reversed transition frame, then flip to forward: the landing at acc 0 and the forward path (Advance steps 5, 7; H5).",B,
   [{"seq":WALK,"rate":-256}],[req(IDLER,stop=True),ms(40),ms(40),ms(40),adv(-3),{"op":"drop_request","thread":0},rate(256),adv(4),adv(-4),adv(-2),ms(40),ms(40)])
sc("unconnected_request","A request with no authored transition (idle -> run): scan_frame -1, target kept, no blend invented (H7).",B,
   [{"seq":IDLE,"rate":256}],[req(RUN),ms(40),ms(40),ms(40),ms(40),req(RUN,1,True),ms(40),rate(-256),ms(40)])
sc("write_root_reseed","Root writes between steps: seed mid-frame with and without ground flag (H15, H16).",B,
   [{"seq":WALK,"rate":256}],[ms(40),wr([0,0,1000],[10,-20,30]),ms(40),wr([500,0,0],[0,0,0]),ms(40),ms(40),setseq(IDLE),wr([0,0,-2000],[5,5,5]),ms(40),setseq(WALK,2,7),wr([100,-200,300],[-1000,2000,0]),ms(40)])
sc("three_threads_priority_change","Locomotion on idle (96), twist (1), pitch (2): slots [1,2,0]; a transition into walk (0) moves it first; the seeded and read slot differ on that step (H17, H18, D4).",B,
   [{"seq":IDLE,"rate":256},{"seq":TWIST},{"seq":PITCH}],
   [ms(40),req(WALK),ms(40),ms(40),ms(40),ms(40),ms(40),seek(TWIST,3000,1),seek(PITCH,14000,2),ms(40),req(IDLE),ms(40),ms(40),ms(40),ms(40),ms(40),ms(40)])
sc("one_shot_played_out","The stop one-shot plays out: frame = next_frame, its last G re-committed every dur; backwards it holds at frame 0 (H2, Advance step 4).",B,
   [{"seq":STOP,"rate":256}],[ms(40)]*6+[rate(-256)]+[ms(40)]*5+[adv(-3)])
sc("rate_sign_flip_rerequest","A sign flip re-runs the pending request: releases a frozen thread only if it searches (H5, H8).",B,
   [{"seq":WALK,"rate":256}],[req(STOP,stop=True)]+[ms(40)]*5+[rate(-256),ms(40),rate(256),ms(40),req(STOP,0,True),rate(-100),ms(40),rate(100),ms(40)])
sc("drop_request","DropRequest disarms a pending transition; playback continues (H4c).",B,
   [{"seq":WALK,"rate":256}],[req(RUN),ms(40),{"op":"drop_request","thread":0},ms(40),ms(40),ms(40),req(-1),ms(40)])
sc("add_threads_to_ten","Threads registered up to the 10-slot limit; equal priorities keep registration order (H17, H18).",B,
   [{"seq":WALK,"rate":256}],[{"op":"add_thread","seq":s} for s in [PITCH,IDLE,TWIST,RUN,PITCH,TWIST,IDLER,TURN,WALK]]+[rate(100,3),rate(-50,5),ms(40),ms(40)])
sc("zero_durations","Zero-length frames and a zero-length transition, forward and backward (D2).",E,
   [{"seq":0,"rate":256}],[adv(3),adv(9),req(1),adv(10),ms(40),ms(40),rate(-256),ms(40),ms(40),setseq(0,3,5),adv(-20),adv(-4),setseq(0,2),adv(1)])
sc("one_frame_and_one_shot_edges","A one-frame cyclic sequence holds backwards like a one-shot; a one-shot with a zero-length frame (H2, Advance step 4, D2).",E,
   [{"seq":1,"rate":256},{"seq":2,"rate":256}],[ms(40),ms(40),rate(-256,0),ms(40),adv(-5,0),adv(6,1),adv(3,1),adv(20,1),rate(-256,1),adv(7,1),adv(10,1),adv(30,1)])
sc("wraps_and_half_turns","i16 wraps: huge deltas play backwards, translations wrap, half-turn rotations blend the negative way (H10, H11, Advance 2-3).",E,
   [{"seq":0,"rate":256}],[setseq(0,3,0),adv(7),adv(32767),rate(32767),adv(300),rate(-32768),adv(3),adv(-32768),setseq(2,0,4),adv(2)])
sc("clock_extremes","Elapsed times below and above the clamp, 40/41 ms, 125 ms (H19, H20).",X,
   [{"seq":0,"rate":256}],[ms(0),ms(20),ms(39),ms(40),ms(41),ms(125),ms(176),ms(177),ms(1000000)])
sc("turn_yaw_object","Turn in place: yaw root motion turns the object's heading; object starts rotated and displaced (H14, H16, H29).",B,
   [{"seq":TURN,"rate":256}],[ms(40)]*10+[rate(-128)]+[ms(40)]*4,{"euler":[0,0,16384],"position":[1000,-2000,50]})
sc("walk_run_walk","Walk -> run -> walk through authored transitions (H6).",B,
   [{"seq":WALK,"rate":256}],[req(RUN)]+[ms(40)]*5+[req(WALK)]+[ms(40)]*5+[req(STOP,stop=True)]+[ms(40)]*6)
sc("set_sequence_keeps_stale_g","SetSequence into a non-ground sequence drops only the flag; G keeps its value; new threads start from sequence 0's G (H4a, H14).",B,
   [{"seq":TWIST}],[{"op":"add_thread","seq":WALK},rate(256,1),ms(40),setseq(IDLE,1,30,1),ms(40),setseq(TURN,3,19,1),ms(40),setseq(PITCH,2,0,1),ms(40)])
sc("example_continued","The worked example's asset: halt back to walk through halt frame 1, then reverse through the transition (H6, H9).",X,
   [{"seq":1,"rate":256}],[ms(40),req(0),ms(40),ms(40),ms(40),rate(-256),req(1,1,True),ms(40),ms(40),ms(40),ms(40)])
for n,s in S.items():
    open(n+".json","w").write(json.dumps(s,indent=1)+"\n")
print(len(S))
